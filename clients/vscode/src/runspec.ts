// The help "Upskill: Run" shows when no run spec is set: what the daemon needs to launch a kernel
// (the full reference is docs/gpu.md in the upskilld sources).
export const RUN_SPEC_HELP = `# The run spec

**Upskill: Run** compiles the file, then launches one kernel on the GPU with fresh inputs,
checks its outputs (NaN-poisoned, compared with a reference when given) and times it. It needs to
know how to launch the kernel: put a spec in the setting \`upskilld.defaultRunSpec\`
(*Preferences: Open Settings (JSON)*), for example:

\`\`\`json
"upskilld.defaultRunSpec": {
  "kernel": "scale",
  "grid": [16], "block": [256],
  "args": [
    {"name": "x", "dtype": "f32", "count": 4096, "role": "in"},
    {"name": "y", "dtype": "f32", "count": 4096, "role": "out"},
    {"name": "n", "dtype": "i32", "value": 4096}
  ],
  "reference": {"name": "scale_ref"}
}
\`\`\`

| Field | Meaning |
|---|---|
| \`kernel\` | the kernel to run; optional when the file defines one |
| \`grid\`, \`block\` | the launch shape: an integer or \`[x, y, z]\`; at most 1024 threads a block |
| \`args\` | in the kernel's parameter order. A buffer: \`dtype\` (\`f32 f16 bf16 f64 i8 i32 i64 u8 u32\`), \`count\` or \`shape\`, \`role\` (\`in\`, \`out\`, \`inout\`), \`init\` (\`{"random": {"seed", "low", "high"}}\`, \`{"value": v}\`, \`{"file": path}\`). A scalar: \`dtype\` and \`value\` |
| \`reference\` | \`{"name"}\`: a kernel in the same file computing the right answer; \`{"path", "name"}\`: one in another file; \`{"file"}\`: the expected output |
| \`atol\`, \`rtol\` | tolerances (default per dtype: f32 1e-4, f16/bf16 1e-2) |
| \`trials\`, \`warmup\`, \`iterations\`, \`timeoutMs\` | 5, 3, 20, 10000 |
| \`sharedBytes\` | dynamic shared memory a block |
| \`sanitizer\` | \`memcheck\`, \`racecheck\`, \`initcheck\` or \`synccheck\` |

A bad field is refused before anything runs, with its path: \`run.args[2].dtype: unknown dtype 'f8'\`.
Without a GPU (or when the machine with one is reached through \`upskilld.workerCommand\`, e.g.
\`srun --gres=gpu:1\`), the compile part still answers and the run says why it could not start.
`;
