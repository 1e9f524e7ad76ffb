// Core-profile prototypes straight from libGL's exports, as sokol does on Linux: no loader.
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
