/* An SDL2 window that pulls device motion once per frame and draws gravity as a bar: the way
 * a C game reads Tiltkit. Controller events go to the manager, so "sdl" sources work too.
 *   cc sdl_window.c -o sdl_window $(pkg-config --cflags --libs tiltkit sdl2)
 *   ./sdl_window [SOURCE [FRAMES]]        SDL_VIDEODRIVER=offscreen runs it headless */
#include <SDL.h>
#include <stdio.h>
#include <stdlib.h>
#include <tiltkit.h>

int main(int argc, char **argv) {
    const char *source = argc > 1 ? argv[1] : "auto";
    int frames = argc > 2 ? atoi(argv[2]) : 600;
    if (SDL_Init(SDL_INIT_VIDEO) != 0) { fprintf(stderr, "SDL: %s\n", SDL_GetError()); return 1; }
    SDL_Window *window = SDL_CreateWindow("tiltkit", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, 320, 240, 0);
    SDL_Renderer *renderer = window ? SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE) : NULL;
    if (!renderer) { fprintf(stderr, "SDL: %s\n", SDL_GetError()); return 1; }

    char error[512];
    tk_manager *manager = tk_manager_create(source, error, sizeof error);
    if (!manager) { fprintf(stderr, "%s\n", error); return 1; }
    if (tk_manager_start_device_motion(manager, 0, "XArbitraryZVertical") != 0) {
        fprintf(stderr, "%s\n", tk_manager_last_error(manager));
        return 1;
    }
    int pulled = 0, running = 1;
    tk_device_motion m = {0};
    /* FRAMES frames from the first sample (a file source takes a moment to open), 10 s at most before it. */
    for (int frame = 0; running && pulled < frames && frame < frames + 600; frame++) {
        SDL_Event event;
        while (SDL_PollEvent(&event)) {
            if (event.type == SDL_QUIT) running = 0;
            tk_manager_handle_sdl_event(manager, &event);
        }
        if (tk_manager_latest_device_motion(manager, &m) == 1) pulled++;
        SDL_SetRenderDrawColor(renderer, 20, 20, 30, 255);
        SDL_RenderClear(renderer);
        SDL_Rect bar = {160, 120, (int)(m.gravity[0] * 100), 8}; /* tilt left-right */
        if (bar.w < 0) { bar.x += bar.w; bar.w = -bar.w; }
        SDL_SetRenderDrawColor(renderer, 240, 180, 40, 255);
        SDL_RenderFillRect(renderer, &bar);
        SDL_RenderPresent(renderer);
        SDL_Delay(16);
    }
    printf("frames pulled %d; last t=%.3f s gravity=(%.3f %.3f %.3f) g\n",
           pulled, m.timestamp, m.gravity[0], m.gravity[1], m.gravity[2]);
    tk_manager_destroy(manager);
    SDL_DestroyRenderer(renderer);
    SDL_DestroyWindow(window);
    SDL_Quit();
    return pulled > 0 ? 0 : 1;
}
