// Every sample pushed to a handler, from C++: counts samples and keeps the last heading.
//   c++ push.cpp -o push $(pkg-config --cflags --libs tiltkit)
//   ./push [SOURCE [SECONDS]]
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>
#include <tiltkit.h>

struct Counter {
    std::atomic<int> samples{0};
    std::atomic<double> last_timestamp{0};
};

int main(int argc, char **argv) {
    const char *source = argc > 1 ? argv[1] : "auto";
    double seconds = argc > 2 ? std::atof(argv[2]) : 1.0;
    char error[512];
    std::unique_ptr<tk_manager, void (*)(tk_manager *)> manager(
        tk_manager_create(source, error, sizeof error), tk_manager_destroy);
    if (!manager) { std::fprintf(stderr, "%s\n", error); return 1; }
    Counter counter;
    tk_manager_set_device_motion_handler(manager.get(), [](const tk_device_motion *m, void *context) {
        auto *c = static_cast<Counter *>(context);
        c->samples++;
        c->last_timestamp = m->timestamp;
    }, &counter);
    if (tk_manager_start_device_motion(manager.get(), 0, nullptr) != 0) {
        std::fprintf(stderr, "%s\n", tk_manager_last_error(manager.get()));
        return 1;
    }
    // SECONDS from the first sample (a file source takes a moment to open), 10 s at most before it.
    for (int wait = 0; counter.samples == 0 && wait < 1000; wait++) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    manager.reset(); // stops the source before `counter` goes
    std::printf("pushed %d samples, last t=%.3f s\n", counter.samples.load(), counter.last_timestamp.load());
    return counter.samples > 0 ? 0 : 1;
}
