// Times x-io Fusion (the C library; Seb Madgwick, x-io Technologies, MIT) over the samples
// `tiltkit bench fusion` measures Tiltkit on, so that its cost is measured in the same run rather
// than quoted. scripts/install-peers.sh builds this file against the library's sources as PyPI's
// imufusion package ships them, compiled -O2 with the library's own configuration.
//
//   fusion-cost FILE
//
// FILE holds little-endian float64 values: the number of recordings, then per recording its sample
// count n and whether it has a magnetometer (0 or 1), then n rows of
// t (s), gyro x y z (°/s), specific force x y z (g), field x y z (any unit).
// Prints one JSON object: what ran (the library's version, which the build passes as
// IMUFUSION_VERSION, and `ahrsSettings`), and ns per sample of CPU time (this thread) for the 6-axis
// update over every recording and the 9-axis update over those with a magnetometer, each with a fresh
// filter per recording, the settings BROAD's peer figures used (`ahrsSettings`) and the library's gyro
// bias module before the AHRS, as its advanced example runs them. The samples are converted to the library's float vectors before timing.
// Each is timed twice, in turn: taking the quaternion only, and writing per sample what Tiltkit's
// rows write of Core Motion's device motion (`DeviceMotionOutput`), by the library's getters.
#include "Fusion.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef IMUFUSION_VERSION
#define IMUFUSION_VERSION "of unknown version"
#endif

// The AHRS settings timeRecording runs (the sample rate is each recording's), printed from here
// for the bench's note beside the figures.
static const FusionAhrsSettings ahrsSettings = {
    .convention = FusionConventionNwu,
    .gain = 0.5f,
    .gyroscopeRange = 2000.0f,
    .accelerationRejection = 10.0f,
    .magneticRejection = 10.0f,
    .rejectionTimeout = 5.0f,
};

typedef struct {
    long count;
    int hasMagnetometer;
    float sampleRate;
    float *dt;
    FusionVector *gyro, *accel, *field;
} Recording;

static double threadSeconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

static int readValues(FILE *file, double *values, size_t count) {
    return fread(values, sizeof(double), count, file) == count;
}

// Returns the number of recordings read, or -1 with a message on stderr.
static long load(const char *path, Recording **out) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); return -1; }
    double header[2];
    if (!readValues(file, header, 1) || header[0] < 1 || header[0] > 1e6) {
        fprintf(stderr, "%s: no recording count\n", path);
        fclose(file);
        return -1;
    }
    long recordings = (long) header[0];
    Recording *all = calloc((size_t) recordings, sizeof(Recording));
    for (long r = 0; r < recordings; r++) {
        if (!readValues(file, header, 2) || header[0] < 2 || header[0] > 1e9) {
            fprintf(stderr, "%s: recording %ld has no sample count\n", path, r);
            fclose(file);
            return -1;
        }
        Recording *rec = &all[r];
        rec->count = (long) header[0];
        rec->hasMagnetometer = header[1] != 0;
        rec->dt = malloc((size_t) rec->count * sizeof(float));
        rec->gyro = malloc((size_t) rec->count * sizeof(FusionVector));
        rec->accel = malloc((size_t) rec->count * sizeof(FusionVector));
        rec->field = malloc((size_t) rec->count * sizeof(FusionVector));
        double row[10], previous = 0;
        for (long i = 0; i < rec->count; i++) {
            if (!readValues(file, row, 10)) {
                fprintf(stderr, "%s: recording %ld ends at sample %ld of %ld\n", path, r, i, rec->count);
                fclose(file);
                return -1;
            }
            rec->dt[i] = (float) (i == 0 ? 0 : row[0] - previous);
            previous = row[0];
            rec->gyro[i] = (FusionVector) {.axis = {(float) row[1], (float) row[2], (float) row[3]}};
            rec->accel[i] = (FusionVector) {.axis = {(float) row[4], (float) row[5], (float) row[6]}};
            rec->field[i] = (FusionVector) {.axis = {(float) row[7], (float) row[8], (float) row[9]}};
        }
        double duration = 0;
        for (long i = 1; i < rec->count; i++) duration += rec->dt[i];
        rec->sampleRate = (float) ((double) (rec->count - 1) / duration);
        rec->dt[0] = 1.0f / rec->sampleRate;
    }
    fclose(file);
    *out = all;
    return recordings;
}

// What a program needs of the AHRS to fill Core Motion's device motion, as `tiltkit bench fusion`
// has Tiltkit write it per sample: attitude, bias-corrected rotation rate, gravity, and the user's
// acceleration (the measured one less gravity: gravity is taken once, where the library's
// FusionAhrsGetLinearAcceleration would compute it again). Global, so the stores stay in the loop.
typedef struct {
    FusionQuaternion attitude;
    FusionVector rotationRate, gravity, userAcceleration;
} DeviceMotionOutput;
DeviceMotionOutput deviceMotionOutput;

// One pass over `rec` with a fresh bias module and AHRS, taking the quaternion only or, with
// `deviceMotion`, writing `deviceMotionOutput`; returns CPU seconds, adds to *sum.
static double timeRecording(const Recording *rec, int withMagnetometer, int deviceMotion, float *sum) {
    FusionAhrs ahrs;
    FusionAhrsInitialise(&ahrs);
    FusionAhrsSettings settings = ahrsSettings;
    settings.sampleRate = rec->sampleRate;
    FusionAhrsSetSettings(&ahrs, &settings);
    FusionBias bias;
    FusionBiasInitialise(&bias);
    FusionBiasSettings biasSettings = fusionBiasDefaultSettings;
    biasSettings.sampleRate = rec->sampleRate;
    FusionBiasSetSettings(&bias, &biasSettings);

    float total = 0;
    const double start = threadSeconds();
    for (long i = 0; i < rec->count; i++) {
        const FusionVector gyro = FusionBiasUpdate(&bias, rec->gyro[i]);
        FusionAhrsSetSamplePeriod(&ahrs, rec->dt[i]);
        if (withMagnetometer) {
            FusionAhrsUpdate(&ahrs, gyro, rec->accel[i], rec->field[i]);
        } else {
            FusionAhrsUpdateNoMagnetometer(&ahrs, gyro, rec->accel[i]);
        }
        if (deviceMotion) {
            DeviceMotionOutput *out = &deviceMotionOutput;
            out->attitude = FusionAhrsGetQuaternion(&ahrs);
            out->rotationRate = gyro;
            out->gravity = FusionAhrsGetGravity(&ahrs);
            out->userAcceleration = FusionVectorSubtract(rec->accel[i], out->gravity);
            total += out->attitude.element.w;
        } else {
            total += FusionAhrsGetQuaternion(&ahrs).element.w;
        }
    }
    const double elapsed = threadSeconds() - start;
    *sum += total;
    return elapsed;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE (see the comment at the top of fusion-cost.c)\n", argv[0]);
        return 2;
    }
    Recording *recordings;
    const long count = load(argv[1], &recordings);
    if (count < 0) return 1;
    // [0]: quaternion only, [1]: device motion's outputs; the two alternate recording by recording
    double six[2] = {0, 0}, nine[2] = {0, 0};
    long sixSamples = 0, nineSamples = 0;
    float sum = 0;
    for (long r = 0; r < count; r++) {
        for (int output = 0; output < 2; output++) six[output] += timeRecording(&recordings[r], 0, output, &sum);
        sixSamples += recordings[r].count;
        if (recordings[r].hasMagnetometer) {
            for (int output = 0; output < 2; output++) nine[output] += timeRecording(&recordings[r], 1, output, &sum);
            nineSamples += recordings[r].count;
        }
    }
    char nineAxis[2][32] = {"null", "null"};
    for (int output = 0; output < 2 && nineSamples > 0; output++) {
        snprintf(nineAxis[output], sizeof nineAxis[output], "%.3f", 1e9 * nine[output] / (double) nineSamples);
    }
    // The sum keeps the updates from being optimised away; printed so that it is used.
    printf("{\"library\": \"x-io Fusion, imufusion %s's sources\", \"setup\": \"gain %g, acceleration rejection %g°, "
           "magnetic rejection %g°, rejection timeout %g s, its gyro bias module first; single precision\", "
           "\"sixAxisNanosecondsPerSample\": %.3f, \"nineAxisNanosecondsPerSample\": %s, "
           "\"sixAxisDeviceMotionNanosecondsPerSample\": %.3f, \"nineAxisDeviceMotionNanosecondsPerSample\": %s, "
           "\"checksum\": %.6g}\n",
           IMUFUSION_VERSION, ahrsSettings.gain, ahrsSettings.accelerationRejection, ahrsSettings.magneticRejection,
           ahrsSettings.rejectionTimeout, 1e9 * six[0] / (double) sixSamples, nineAxis[0],
           1e9 * six[1] / (double) sixSamples, nineAxis[1], (double) sum);
    return 0;
}
