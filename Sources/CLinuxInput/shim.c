// The shims are static inline in the header; this file gives the target something to compile.
#include "CLinuxInput.h"
