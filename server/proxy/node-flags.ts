// The Node flags the `proxy` command runs with, and the restart that applies
// them: V8 reads them only when a process starts.
//
// Node copies every chunk of a request body into a buffer of its own, which
// only a garbage collection frees. V8 frees such buffers at each minor
// collection of its young generation, which comes every time that many bytes
// of JavaScript objects were allocated; its default young generation (up to
// 2 × 16 MiB) is so large that during a burst of uploads no minor collection
// comes, and 60 to 80 MiB of copies pile up before V8's external-memory
// trigger runs a full one. Semi-spaces of 2 MiB free them as the uploads go
// and take 30 MiB off the idle process. BENCHMARKS.md (proxy-apply, proxy)
// has the measures with these flags.
export const PROXY_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2'];

/**
 * Replaces this process (same pid, standard streams and environment) by
 * Node running the same command with PROXY_NODE_FLAGS first. Does nothing
 * when the operator sized the young generation already (in the command line
 * or NODE_OPTIONS), and where Node cannot exec (Windows): the proxy then runs
 * as Node's defaults make it, with more memory.
 */
export function restartWithProxyFlags(): void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((flag) => flag.startsWith('--max-semi-space-size'))) return;
  if (process.platform === 'win32' || typeof process.execve !== 'function') return;
  try {
    process.execve(
      process.execPath,
      [process.execPath, ...PROXY_NODE_FLAGS, ...process.execArgv, ...process.argv.slice(1)],
      process.env,
    );
  } catch {
    // execve(2) failed and this process goes on unchanged, with Node's defaults.
  }
}
