// Module CartGame: see Package.swift for its role.
