// SDL2_image, for writing screenshots as PNG (IMG_SavePNG).
#include <SDL2/SDL_image.h>
