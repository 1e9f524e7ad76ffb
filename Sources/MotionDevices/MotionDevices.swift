// Module MotionDevices: see Package.swift for its role.
