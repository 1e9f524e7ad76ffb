"""A game's view of a pad: the system's libSDL2 through ctypes, as a game would call it.

    python3 sdl_controller.py VENDOR PRODUCT SECONDS

Prints JSON lines on stdout: first the joystick SDL found with that USB vendor/product (its name,
node, whether SDL takes it for a game controller, its mapping), then every change of the right
stick's axes and the A/B/X/Y buttons as SDL's game-controller API reports them, for SECONDS.
Runs in a process of its own so SDL's state never outlives a case."""
import ctypes
import json
import sys
import time

SDL_INIT_GAMECONTROLLER = 0x00002000
# SDL_GameControllerAxis / SDL_GameControllerButton (SDL_gamecontroller.h)
AXES = {"rightx": 2, "righty": 3}
BUTTONS = {"a": 0, "b": 1, "x": 2, "y": 3}


def say(**fields):
    print(json.dumps(fields), flush=True)


def main():
    vendor, product, seconds = int(sys.argv[1], 16), int(sys.argv[2], 16), float(sys.argv[3])
    sdl = ctypes.CDLL("libSDL2-2.0.so.0")
    sdl.SDL_GetError.restype = ctypes.c_char_p
    sdl.SDL_JoystickNameForIndex.restype = ctypes.c_char_p
    sdl.SDL_JoystickPathForIndex.restype = ctypes.c_char_p
    sdl.SDL_GameControllerMappingForDeviceIndex.restype = ctypes.c_void_p
    sdl.SDL_GameControllerOpen.restype = ctypes.c_void_p
    sdl.SDL_GameControllerName.restype = ctypes.c_char_p
    sdl.SDL_GameControllerName.argtypes = [ctypes.c_void_p]
    sdl.SDL_GameControllerGetAxis.argtypes = [ctypes.c_void_p, ctypes.c_int]
    sdl.SDL_GameControllerGetAxis.restype = ctypes.c_int16
    sdl.SDL_GameControllerGetButton.argtypes = [ctypes.c_void_p, ctypes.c_int]
    sdl.SDL_free.argtypes = [ctypes.c_void_p]
    if sdl.SDL_Init(SDL_INIT_GAMECONTROLLER) != 0:
        say(error=f"SDL_Init: {sdl.SDL_GetError().decode()}")
        return 1
    index = None
    seen = []
    for i in range(sdl.SDL_NumJoysticks()):
        ids = (sdl.SDL_JoystickGetDeviceVendor(i), sdl.SDL_JoystickGetDeviceProduct(i))
        seen.append(f"{sdl.SDL_JoystickNameForIndex(i).decode()} {ids[0]:04x}:{ids[1]:04x}")
        if ids == (vendor, product):
            index = i
    if index is None:
        say(error=f"no joystick {vendor:04x}:{product:04x} among {seen}")
        return 1
    mapping_ptr = sdl.SDL_GameControllerMappingForDeviceIndex(index)
    mapping = ctypes.string_at(mapping_ptr).decode() if mapping_ptr else None
    if mapping_ptr:
        sdl.SDL_free(mapping_ptr)
    path = sdl.SDL_JoystickPathForIndex(index)
    is_controller = bool(sdl.SDL_IsGameController(index))
    say(joystick=sdl.SDL_JoystickNameForIndex(index).decode(), path=path.decode() if path else None,
        is_game_controller=is_controller, mapping=mapping, all=seen)
    if not is_controller:
        return 1
    controller = sdl.SDL_GameControllerOpen(index)
    if not controller:
        say(error=f"SDL_GameControllerOpen: {sdl.SDL_GetError().decode()}")
        return 1
    say(controller=sdl.SDL_GameControllerName(controller).decode())
    last = None
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        sdl.SDL_GameControllerUpdate()
        state = {name: sdl.SDL_GameControllerGetAxis(controller, a) for name, a in AXES.items()}
        state.update({name: sdl.SDL_GameControllerGetButton(controller, b) for name, b in BUTTONS.items()})
        if state != last:
            say(t=time.monotonic(), **state)
            last = state
        time.sleep(0.005)
    sdl.SDL_Quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
