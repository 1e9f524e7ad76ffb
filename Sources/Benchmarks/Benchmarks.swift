// Module Benchmarks: see Package.swift for its role.
