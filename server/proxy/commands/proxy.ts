// `jobboard-connector proxy`: reads the configuration from the environment
// (and CONFIG_FILE), starts the proxy, and shuts it down gracefully on
// SIGINT/SIGTERM (in-flight requests finish, workers stop, stores close).
import { ConfigError, ENV_VARIABLES, loadProxyConfig } from '../config.ts';
import { storageDescription } from '../storage/index.ts';
import { DataDirInUseError } from '../storage/data-dir-lock.ts';
import { UpstreamCheckError, startProxy } from '../index.ts';

const HELP = `Usage: jobboard-connector proxy [--allow-empty-catalogue]

Serves the proxy a job board hosts: the campaign catalogue and the
application form's endpoint, in front of the recruitment API.

Configured by environment variables (or a JSON file named by CONFIG_FILE
holding the same names); see server/proxy/README.md. Required:
UPSTREAM_URL, UPSTREAM_PRIVATE_KEY, UPSTREAM_SECRET_KEY, JOBBOARD_CHANNEL.

Known variables: ${ENV_VARIABLES.join(', ')}, CONFIG_FILE.

At start the proxy signs in and checks that its keys are a job board's and
that JOBBOARD_CHANNEL is one of theirs and lists online offers; it stops on
a proven mistake.

Options:
  --allow-empty-catalogue  start even when the channel lists no offer yet
                           (a board that legitimately starts empty; the
                           same as ALLOW_EMPTY_CATALOGUE=true)

Stops gracefully on SIGINT or SIGTERM; a second signal stops at once.`;

/** What the socket is bound to, in words: the URL printed is one a person can open, which is not always where it listens. */
function boundTo(host: string, port: number): string {
  if (host === '0.0.0.0') return `bound to every IPv4 interface, 0.0.0.0:${port}`;
  if (host === '::') return `bound to every interface, [::]:${port}`;
  return `bound to ${host.includes(':') ? `[${host}]` : host}:${port} only`;
}

/** The command's flags and the variable each one sets. */
const FLAG_VARIABLES: Record<string, string> = { '--allow-empty-catalogue': 'ALLOW_EMPTY_CATALOGUE' };

export async function main(args: string[]): Promise<void> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(HELP);
    return;
  }
  const unknown = args.filter((arg) => !Object.hasOwn(FLAG_VARIABLES, arg));
  if (unknown.length > 0) {
    console.error(`Unknown option ${unknown[0]}: the proxy is configured by environment variables.\n\n${HELP}`);
    process.exit(2);
  }
  // A flag is its variable set to true; the flag wins over the environment.
  const env = { ...process.env, ...Object.fromEntries(args.map((flag) => [FLAG_VARIABLES[flag], 'true'])) };

  let config;
  try {
    config = loadProxyConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const proxy = await startProxy({ config }).catch((error: unknown) => {
    if (error instanceof DataDirInUseError || error instanceof UpstreamCheckError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  });

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      console.error(`${signal} again: stopping now.`);
      process.exit(1);
    }
    stopping = true;
    console.error(`${signal}: finishing in-flight requests, then stopping.`);
    proxy.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error instanceof Error ? error.message : error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Once SIGTERM is handled: whoever waits for this line may stop the proxy at once.
  console.error(
    `Proxy listening on ${proxy.url} (${boundTo(config.host, proxy.port)}; channel ${config.channel}, ${storageDescription(config)})`,
  );
}
