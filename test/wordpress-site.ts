// A real WordPress for a test: Debian's `wordpress` package (WORDPRESS_DIR,
// /usr/share/wordpress by default) copied into a temporary folder with a
// wp-config.php of its own, a fresh MariaDB database (TEST_MARIADB_URL,
// mysql://root@127.0.0.1:3306 by default; .ci/mariadb starts one), installed
// by wp_install() from PHP's command line, and served by PHP's built-in
// server. WP_DEBUG is on and its log kept, so a test can read every notice.
// close() stops the server, drops the database and removes the folder.
import { spawn, execFile } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eventually } from '../server/test/poll.ts';

const run = promisify(execFile);

export const WORDPRESS_DIR = process.env.WORDPRESS_DIR ?? '/usr/share/wordpress';
const MARIADB_URL = process.env.TEST_MARIADB_URL ?? 'mysql://root@127.0.0.1:3306';

export const ADMIN = { user: 'admin', password: randomBytes(12).toString('base64url'), email: 'admin@example.org' };

export interface WordpressSite {
  /** http://127.0.0.1:PORT, the site's home. */
  url: string;
  /** The site's folder (ABSPATH). */
  root: string;
  /** Runs PHP code from the command line with WordPress loaded; answers what it printed. */
  php(code: string): Promise<string>;
  /** What PHP wrote: the built-in server's output and WP_DEBUG's log. */
  phpOutput(): string;
  close(): Promise<void>;
}

interface Database {
  host: string;
  port: number;
  user: string;
  password: string;
  name: string;
}

/** A PHP string literal. */
const phpString = (text: string): string => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

function databaseOf(url: string): Database {
  const parsed = new URL(url);
  if (parsed.protocol !== 'mysql:')
    throw new Error(`TEST_MARIADB_URL must be mysql://USER[:PASSWORD]@HOST:PORT, got ${url}`);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 3306),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    name: `jbc_wordpress_${process.pid}_${randomBytes(4).toString('hex')}`,
  };
}

/** Runs a PHP file; fails with what it printed when it exits with an error. */
async function runPhp(file: string): Promise<string> {
  try {
    return (await run('php', [file], { encoding: 'utf8' })).stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`php ${file} failed:\n${stdout ?? ''}${stderr ?? ''}`, { cause: error });
  }
}

/** CREATE or DROP the database, through PHP's mysqli (the driver WordPress uses). */
async function databaseStatement(dir: string, db: Database, statement: 'CREATE' | 'DROP'): Promise<void> {
  const file = join(dir, `database-${statement.toLowerCase()}.php`);
  writeFileSync(
    file,
    `<?php
mysqli_report( MYSQLI_REPORT_ERROR | MYSQLI_REPORT_STRICT );
$db = new mysqli( ${phpString(db.host)}, ${phpString(db.user)}, ${phpString(db.password)}, null, ${db.port} );
$db->query( '${statement} DATABASE ${statement === 'DROP' ? 'IF EXISTS ' : ''}\`${db.name}\`' );
`,
  );
  await runPhp(file);
}

function wpConfig(db: Database, url: string, debugLog: string): string {
  const salts = ['AUTH', 'SECURE_AUTH', 'LOGGED_IN', 'NONCE']
    .flatMap((name) => [`${name}_KEY`, `${name}_SALT`])
    .map((name) => `define( '${name}', '${randomBytes(32).toString('hex')}' );`)
    .join('\n');
  return `<?php
define( 'DB_NAME', ${phpString(db.name)} );
define( 'DB_USER', ${phpString(db.user)} );
define( 'DB_PASSWORD', ${phpString(db.password)} );
define( 'DB_HOST', ${phpString(`${db.host}:${db.port}`)} );
define( 'DB_CHARSET', 'utf8mb4' );
define( 'DB_COLLATE', '' );
${salts}
$table_prefix = 'wp_';
define( 'WP_HOME', ${phpString(url)} );
define( 'WP_SITEURL', ${phpString(url)} );
define( 'WP_DEBUG', true );
define( 'WP_DEBUG_DISPLAY', false );
define( 'WP_DEBUG_LOG', ${phpString(debugLog)} );
// No network here: WordPress's own calls (updates, news) fail at once instead of waiting.
define( 'WP_HTTP_BLOCK_EXTERNAL', true );
define( 'AUTOMATIC_UPDATER_DISABLED', true );
define( 'DISABLE_WP_CRON', true );
define( 'FS_METHOD', 'direct' );
if ( ! defined( 'ABSPATH' ) ) {
	define( 'ABSPATH', __DIR__ . '/' );
}
require_once ABSPATH . 'wp-settings.php';
`;
}

/** The server's variables a script from the command line lacks, for the code that reads them. */
function cliServerVars(url: string): string {
  const { host } = new URL(url);
  return `$_SERVER['HTTP_HOST'] = ${phpString(host)};
$_SERVER['SERVER_NAME'] = '127.0.0.1';
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['REQUEST_METHOD'] = 'GET';`;
}

function installScript(root: string, url: string): string {
  return `<?php
${cliServerVars(url)}
define( 'WP_INSTALLING', true );
require ${phpString(join(root, 'wp-load.php'))};
// No mail from a test: wp_install() tells the admin by email.
function wp_new_blog_notification() {}
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
$result = wp_install( 'Acme Jobs', ${phpString(ADMIN.user)}, ${phpString(ADMIN.email)}, false, '', wp_slash( ${phpString(ADMIN.password)} ) );
if ( is_wp_error( $result ) ) {
	fwrite( STDERR, $result->get_error_message() );
	exit( 1 );
}
// Addresses as most sites have them: /jobs/ rather than /?page_id=2.
update_option( 'permalink_structure', '/%postname%/' );
`;
}

/**
 * Installs and serves a WordPress on `port` in `dir` (the folder must exist
 * and is the caller's to remove).
 */
export async function startWordpressSite({ dir, port }: { dir: string; port: number }): Promise<WordpressSite> {
  if (!existsSync(join(WORDPRESS_DIR, 'wp-settings.php')))
    throw new Error(
      `No WordPress in ${WORDPRESS_DIR}: install Debian's (apt-get install wordpress php-mysql mariadb-server, as .ci/run does) or set WORDPRESS_DIR.`,
    );
  const url = `http://127.0.0.1:${port}`;
  const root = join(dir, 'site');
  const debugLog = join(dir, 'debug.log');
  const db = databaseOf(MARIADB_URL);
  // Debian's files link to its shared libraries (underscore, getID3) by relative paths: copied as files.
  // Its wp-config.php reads /etc/wordpress; this site has its own.
  cpSync(WORDPRESS_DIR, root, { recursive: true, dereference: true });
  writeFileSync(join(root, 'wp-config.php'), wpConfig(db, url, debugLog));
  await databaseStatement(dir, db, 'CREATE');
  let server: ChildProcess | undefined;
  let serverOutput = '';
  let scripts = 0;
  const site: WordpressSite = {
    url,
    root,
    async php(code) {
      const file = join(dir, `script-${(scripts += 1)}.php`);
      writeFileSync(file, `<?php\n${cliServerVars(url)}\nrequire ${phpString(join(root, 'wp-load.php'))};\n${code}\n`);
      return runPhp(file);
    },
    phpOutput() {
      return serverOutput + (existsSync(debugLog) ? readFileSync(debugLog, 'utf8') : '');
    },
    async close() {
      // The server and its workers: a process group of their own.
      if (server?.pid !== undefined && server.exitCode === null) process.kill(-server.pid);
      await databaseStatement(dir, db, 'DROP');
    },
  };
  try {
    writeFileSync(join(dir, 'install.php'), installScript(root, url));
    await runPhp(join(dir, 'install.php'));
    // Several workers: Chromium asks for a page's styles and scripts at once.
    server = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', root], {
      env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const keep = (chunk: Buffer) => {
      serverOutput += chunk.toString();
    };
    server.stdout!.on('data', keep);
    server.stderr!.on('data', keep);
    await eventually(async () => (await fetch(`${url}/wp-login.php`).catch(() => undefined))?.status === 200, {
      timeoutMs: 20_000,
      what: `WordPress served at ${url}`,
      intervalMs: 100,
    });
    return site;
  } catch (error) {
    await site.close();
    throw error;
  }
}

/** Where the site's PHP complained: every notice, warning, deprecation or error line. */
export function phpComplaints(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => /PHP (Notice|Warning|Deprecated|Fatal error|Parse error)|PHP Stack trace/.test(line));
}
