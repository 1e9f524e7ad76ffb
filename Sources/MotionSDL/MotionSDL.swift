// Module MotionSDL: see Package.swift for its role.
