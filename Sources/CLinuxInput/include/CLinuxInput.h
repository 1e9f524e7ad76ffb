#ifndef CLINUXINPUT_H
#define CLINUXINPUT_H
// Shims for Linux hidraw/evdev ioctl macros that Swift cannot import (they expand to _IOR/_IOC
// arithmetic). Each returns the request code; the structs come from the kernel's uapi headers.
#include <linux/hidraw.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <sys/ioctl.h>

/// HIDIOCGRAWINFO: fills `struct hidraw_devinfo` {bustype, vendor, product}.
static inline unsigned long clinux_hidiocgrawinfo(void) { return HIDIOCGRAWINFO; }
/// HIDIOCGRAWNAME(len): the device name into a buffer of `len` bytes.
static inline unsigned long clinux_hidiocgrawname(unsigned int len) { return HIDIOCGRAWNAME(len); }
/// HIDIOCGRAWUNIQ(len): the unique id (Bluetooth MAC) into a buffer of `len` bytes.
static inline unsigned long clinux_hidiocgrawuniq(unsigned int len) { return HIDIOCGRAWUNIQ(len); }
/// HIDIOCGFEATURE(len): get a feature report; buffer[0] holds the report ID on entry.
static inline unsigned long clinux_hidiocgfeature(unsigned int len) { return HIDIOCGFEATURE(len); }
/// HIDIOCSFEATURE(len): send a feature report; buffer[0] holds the report ID (0 when it has none).
static inline unsigned long clinux_hidiocsfeature(unsigned int len) { return HIDIOCSFEATURE(len); }
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
/// EVIOCGKEY(len): the keys held now, a bitmask of KEY_MAX bits (read after SYN_DROPPED).
static inline unsigned long clinux_eviocgkey(unsigned int len) { return EVIOCGKEY(len); }
/// EVIOCGMTSLOTS(len): one multi-touch code's value in every slot (`struct input_mt_request_layout`:
/// the code as __u32, then one __s32 a slot), so a reader knows the touches down when it opens.
static inline unsigned long clinux_eviocgmtslots(unsigned int len) { return EVIOCGMTSLOTS(len); }
/// EVIOCSCLOCKID: which clock stamps the events (int; CLOCK_MONOTONIC so they compare with ours).
static inline unsigned long clinux_eviocsclockid(void) { return EVIOCSCLOCKID; }

/// EVIOCGRAB: 1 takes the node for this file alone (other readers, the console and games see
/// nothing), 0 releases it. The kernel releases it too when the file closes.
static inline unsigned long clinux_eviocgrab(void) { return EVIOCGRAB; }

/// uinput (linux/uinput.h), the modern setup: UI_SET_*BIT per capability, UI_ABS_SETUP per axis,
/// UI_DEV_SETUP for ids and name, then UI_DEV_CREATE; UI_DEV_DESTROY removes the device.
static inline unsigned long clinux_ui_set_evbit(void) { return UI_SET_EVBIT; }
static inline unsigned long clinux_ui_set_keybit(void) { return UI_SET_KEYBIT; }
static inline unsigned long clinux_ui_set_relbit(void) { return UI_SET_RELBIT; }
static inline unsigned long clinux_ui_set_absbit(void) { return UI_SET_ABSBIT; }
static inline unsigned long clinux_ui_abs_setup(void) { return UI_ABS_SETUP; }
static inline unsigned long clinux_ui_dev_setup(void) { return UI_DEV_SETUP; }
static inline unsigned long clinux_ui_dev_create(void) { return UI_DEV_CREATE; }
static inline unsigned long clinux_ui_dev_destroy(void) { return UI_DEV_DESTROY; }

/// ioctl with an integer argument passed by value (UI_SET_*BIT, EVIOCGRAB, UI_DEV_CREATE with 0).
static inline int clinux_ioctl_value(int fd, unsigned long request, long value) {
    return ioctl(fd, request, value);
}

/// ioctl with a pointer argument; Swift cannot call the variadic ioctl(2) directly.
static inline int clinux_ioctl_ptr(int fd, unsigned long request, void *argument) {
    return ioctl(fd, request, argument);
}
#endif
