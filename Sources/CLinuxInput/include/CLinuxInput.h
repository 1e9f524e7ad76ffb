#ifndef CLINUXINPUT_H
#define CLINUXINPUT_H
// Shims for Linux hidraw/evdev ioctl macros that Swift cannot import (they expand to _IOR/_IOC
// arithmetic). Each returns the request code; the structs come from the kernel's uapi headers.
#include <linux/hidraw.h>
#include <linux/input.h>
#include <sys/ioctl.h>

/// HIDIOCGRAWINFO: fills `struct hidraw_devinfo` {bustype, vendor, product}.
static inline unsigned long clinux_hidiocgrawinfo(void) { return HIDIOCGRAWINFO; }
/// HIDIOCGRAWNAME(len): the device name into a buffer of `len` bytes.
static inline unsigned long clinux_hidiocgrawname(unsigned int len) { return HIDIOCGRAWNAME(len); }
/// HIDIOCGRAWUNIQ(len): the unique id (Bluetooth MAC) into a buffer of `len` bytes.
static inline unsigned long clinux_hidiocgrawuniq(unsigned int len) { return HIDIOCGRAWUNIQ(len); }
/// HIDIOCGFEATURE(len): get a feature report; buffer[0] holds the report ID on entry.
static inline unsigned long clinux_hidiocgfeature(unsigned int len) { return HIDIOCGFEATURE(len); }
/// HIDIOCGRDESCSIZE: the report descriptor's size in bytes (int).
static inline unsigned long clinux_hidiocgrdescsize(void) { return HIDIOCGRDESCSIZE; }

/// EVIOCGABS(abs): fills `struct input_absinfo` for one absolute axis.
static inline unsigned long clinux_eviocgabs(unsigned int abs) { return EVIOCGABS(abs); }
/// EVIOCGNAME(len): the device name.
static inline unsigned long clinux_eviocgname(unsigned int len) { return EVIOCGNAME(len); }
/// EVIOCGUNIQ(len): the unique id (MAC for pads), used to pair the motion node with its gamepad.
static inline unsigned long clinux_eviocguniq(unsigned int len) { return EVIOCGUNIQ(len); }
/// EVIOCGPROP(len): the INPUT_PROP_* bitmask.
static inline unsigned long clinux_eviocgprop(unsigned int len) { return EVIOCGPROP(len); }
/// EVIOCGBIT(ev, len): the event codes supported for event type `ev` (0 = the event types).
static inline unsigned long clinux_eviocgbit(unsigned int ev, unsigned int len) { return EVIOCGBIT(ev, len); }
/// EVIOCSCLOCKID: which clock stamps the events (int; CLOCK_MONOTONIC so they compare with ours).
static inline unsigned long clinux_eviocsclockid(void) { return EVIOCSCLOCKID; }

/// ioctl with a pointer argument; Swift cannot call the variadic ioctl(2) directly.
static inline int clinux_ioctl_ptr(int fd, unsigned long request, void *argument) {
    return ioctl(fd, request, argument);
}
#endif
