// Module Engine: see Package.swift for its role.
