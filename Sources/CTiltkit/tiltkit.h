/* tiltkit.h: Tiltkit's motion manager for C and C++ (libtiltkit.so).
 *
 * One manager reads one motion source (a trace file, a DualSense or DualShock 4 over hidraw,
 * an IIO IMU, an evdev motion node, an SDL game controller: whatever `tiltkit --source` takes)
 * and fuses it into device motion, as Core Motion's CMMotionManager does. Pull the latest
 * sample once per frame, or have every sample pushed to a handler.
 *
 *     char error[256];
 *     tk_manager *m = tk_manager_create("auto", error, sizeof error);
 *     if (!m) { fprintf(stderr, "%s\n", error); return 1; }
 *     tk_manager_start_device_motion(m, 1.0 / 100, NULL);
 *     tk_device_motion dm;
 *     if (tk_manager_latest_device_motion(m, &dm) == 1) { ... dm.quaternion ... }
 *     tk_manager_destroy(m);
 *
 * Build: cc app.c $(pkg-config --cflags --libs tiltkit)
 *
 * Errors are returned (a NULL manager with the message in `error`, or -1 with the message in
 * tk_manager_last_error); the library prints nothing and never unwinds through C.
 */
#ifndef TILTKIT_H
#define TILTKIT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_manager tk_manager;

typedef struct {
    double timestamp;            /* s, on the source's clock */
    double quaternion[4];        /* w, x, y, z; device -> reference */
    double gravity[3];           /* g, device frame */
    double user_acceleration[3]; /* g, device frame */
    double rotation_rate[3];     /* rad/s, bias-corrected */
    double magnetic_field[3];    /* uT */
    int    magnetic_accuracy;    /* -1 uncalibrated, 0 low, 1 medium, 2 high */
    double heading;              /* degrees, -1 when the frame has no north */
} tk_device_motion;

/* Opens `source_spec` (NULL or "auto": the best device found, else the bundled trace;
 * "trace:PATH" or a path; "hidraw:/dev/hidrawN"; "iio:DIR"; "iio-buffer:DIR"; "evdev:PATH";
 * "sdl[:N]"; "hid-recording:PATH"). Nothing is read until device motion is started.
 * On failure: NULL, and the reason in `error` (cut to `error_len` bytes, always terminated). */
tk_manager *tk_manager_create(const char *source_spec, char *error, size_t error_len);

/* Starts device motion at `interval_s` seconds per update (0: every sample) in `frame`:
 * Core Motion's names "XArbitraryZVertical" (NULL), "XArbitraryCorrectedZVertical",
 * "XMagneticNorthZVertical", "XTrueNorthZVertical" (needs tk_manager_set_location first),
 * with or without a "CMAttitudeReferenceFrame" prefix. 0 on success, -1 on failure
 * (an unknown frame, a frame the source's sensors cannot give, a device that fails to open). */
int tk_manager_start_device_motion(tk_manager *manager, double interval_s, const char *frame);

/* The newest sample: 1 and `*out` filled, or 0 when none has arrived yet; -1 for NULL arguments. */
int tk_manager_latest_device_motion(tk_manager *manager, tk_device_motion *out);

/* Every sample pushed to `handler`, on the source's reading thread, one at a time and in order;
 * `context` is passed back. NULL removes the handler. Set it before or after starting; once this
 * returns, the previous handler is not running and will not be called again (free its context).
 * 0 on success, -1 for a NULL manager. The handler must not call this nor tk_manager_destroy. */
int tk_manager_set_device_motion_handler(tk_manager *manager,
        void (*handler)(const tk_device_motion *motion, void *context), void *context);

/* Where the device is, for "XTrueNorthZVertical" (magnetic declination from the World Magnetic
 * Model at today's date). Degrees and metres. 0 on success, -1 for values out of range. */
int tk_manager_set_location(tk_manager *manager, double latitude_deg, double longitude_deg, double altitude_m);

/* Makes the current attitude the reference: later quaternions are relative to it. */
void tk_manager_reset_reference_attitude(tk_manager *manager);

/* For "sdl" sources in a program that runs its own SDL event loop: hand each event from
 * SDL_PollEvent here (a `const SDL_Event *`), on the thread that started device motion.
 * 1 if it was a game-controller event the manager used, else 0. */
int tk_manager_handle_sdl_event(tk_manager *manager, const void *sdl_event);

/* The reason the last call on `manager` failed ("" if none); valid until the next call. */
const char *tk_manager_last_error(const tk_manager *manager);

/* Stops the source (joining its thread) and frees the manager. NULL is ignored. */
void tk_manager_destroy(tk_manager *manager);

#ifdef __cplusplus
}
#endif

#endif /* TILTKIT_H */
