// Module Demo: see Package.swift for its role.
