// Running a CLI command's main function inside the test process, with
// variables of its own: quicker than a child process, and the same code.
// process.env is shared, so each variable set is put back as it was.

/** Runs `fn` with `env` added to process.env, then restores each variable (unset again if it was). */
export async function withEnv<T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** Runs a command's `main(args, print)` with `env` set; answers what it printed, a line a call. */
export async function runMain(
  main: (args: string[], print: (text: string) => void) => Promise<void>,
  args: string[],
  env: Record<string, string> = {},
): Promise<string> {
  let out = '';
  await withEnv(env, () =>
    main(args, (text) => {
      out += `${text}\n`;
    }),
  );
  return out;
}
