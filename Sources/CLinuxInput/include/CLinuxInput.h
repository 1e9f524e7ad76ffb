#ifndef CLINUXINPUT_H
#define CLINUXINPUT_H
// Shims for Linux input/hidraw ioctl macros that Swift cannot import.
#endif
