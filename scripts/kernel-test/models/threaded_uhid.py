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
        # Ready and answering from before creation: the driver's probe sends its requests while
        # create_kernel_device() returns, and hid-tools answers them only on a device it has marked
        # ready, which it does only if it sees the uevent within ~10 ms. A slow VM misses that, and
        # each unanswered request then costs uhid's 5 s timeout: a sensor hub's probe makes dozens.
        self._ready = True
        t = threading.Thread(target=self._event_loop, daemon=True)
        self._threads.append(t)
        t.start()
        self.create_kernel_device()
        if self._sys_path is None:
            nodes.adopt_sys_path(self, 10)
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
