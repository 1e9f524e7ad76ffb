#define _POSIX_C_SOURCE 199309L /* nanosleep */
/* Pull device motion from a source: the smallest C program on tiltkit.h.
 *   cc pull.c -o pull $(pkg-config --cflags --libs tiltkit)
 *   ./pull [SOURCE [SECONDS [FRAME]]]   SOURCE as `tiltkit --source` takes (default auto),
 *                                       FRAME as Core Motion names it (default XArbitraryZVertical) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <tiltkit.h>

int main(int argc, char **argv) {
    const char *source = argc > 1 ? argv[1] : "auto";
    double seconds = argc > 2 ? atof(argv[2]) : 1.0;
    const char *frame = argc > 3 ? argv[3] : NULL;
    char error[512];
    tk_manager *manager = tk_manager_create(source, error, sizeof error);
    if (!manager) { fprintf(stderr, "%s\n", error); return 1; }
    if (tk_manager_start_device_motion(manager, 0.01, frame) != 0) {
        fprintf(stderr, "%s\n", tk_manager_last_error(manager));
        tk_manager_destroy(manager);
        return 1;
    }
    /* Ten pulls a second for SECONDS from the first sample (a file source takes a moment to open). */
    int pulled = 0;
    for (int tick = 0; pulled < seconds * 10 && tick < seconds * 10 + 100; tick++) {
        struct timespec tenth = {0, 100000000};
        nanosleep(&tenth, NULL);
        tk_device_motion m;
        if (tk_manager_latest_device_motion(manager, &m) != 1) continue;
        pulled++;
        printf("t=%.3f s  q=(%.3f %.3f %.3f %.3f)  gravity=(%.3f %.3f %.3f) g  rate=(%.3f %.3f %.3f) rad/s  heading=%.1f\n",
               m.timestamp, m.quaternion[0], m.quaternion[1], m.quaternion[2], m.quaternion[3],
               m.gravity[0], m.gravity[1], m.gravity[2],
               m.rotation_rate[0], m.rotation_rate[1], m.rotation_rate[2], m.heading);
    }
    tk_manager_destroy(manager);
    printf("pulled %d samples\n", pulled);
    return pulled > 0 ? 0 : 1;
}
