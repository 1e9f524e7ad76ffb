"""A uhid device model that answers the kernel on a thread of its own and streams on another.

hid-tools' own dispatch() serves every device from one loop that the caller must keep turning; the
Switch Pro and sensor-hub models must answer the driver's requests during its probe (which runs
while create_kernel_device() returns) and stream reports at their own rate, so each model gets its
event thread and its stream thread. Subclasses give `_stream_loop`."""
import select
import threading

from hidtools.uhid import UHIDDevice

import nodes


class ThreadedUHIDDevice(UHIDDevice):
    def __init__(self):
        super().__init__()
        self._mlock = threading.Lock()   # the model's state, between the two threads
        self._quit = threading.Event()
        self._threads = []

    def _stream_loop(self):
        raise NotImplementedError

    def _event_loop(self):
        p = select.poll()
        p.register(self._fd, select.POLLIN)
        while not self._quit.is_set():
            if p.poll(50):
                try:
                    self._process_one_event()
                except OSError:
                    return

    def start_device(self):
        """Creates the kernel device and starts answering and streaming."""
        t = threading.Thread(target=self._event_loop, daemon=True)
        self._threads.append(t)
        self.create_kernel_device()
        # hid-tools missed the uevent: found by uniq, so that destroy() still sends UHID_DESTROY.
        if not self._ready:
            self._ready = nodes.adopt_sys_path(self, 5)
        t.start()
        s = threading.Thread(target=self._stream_loop, daemon=True)
        self._threads.append(s)
        s.start()

    def destroy(self):
        # Both threads stop before the fd closes: the stream thread writes to it, and hid-tools'
        # destroy() drains it, which must not race the event thread's reads.
        self._quit.set()
        for t in self._threads:
            if t is not threading.current_thread():
                t.join(timeout=2)
        super().destroy()
