// The README's recipes the Lighthouse bench audits beside the demo's pages and
// the Next.js app: the static page as written, served as a file; a WordPress site with the plugin (installed from
// wordpress/jobboard-connector/, activated and set up from PHP, a published
// page holding [jobboard_offers]), and the plain PHP and plain Node pages run
// as written (test/readme-recipes.ts). Each answers its list's URL; an
// offer opens with ?offer=ID on all three.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../cli-processes.ts';
import { addressed, readmeExample, serveReadmePage } from '../readme-recipes.ts';
import { startWordpressSite } from '../wordpress-site.ts';
import type { WordpressSite } from '../wordpress-site.ts';

const PLUGIN_DIR = join(import.meta.dirname, '..', '..', 'wordpress', 'jobboard-connector');

export interface RecipeBoards {
  /** The origins of the recipes' pages: the proxy must allow them. */
  origins: string[];
  /** Starts the pages against the proxy; answers each recipe's list URL, by recipe. */
  start(proxyUrl: string): Promise<{ recipe: string; url: string }[]>;
  stop(): Promise<void>;
}

/** The ports first (the proxy's ALLOWED_ORIGINS names them), the pages once the proxy runs. */
export async function recipeBoards(dir: string): Promise<RecipeBoards> {
  const ports = {
    static: await freePort(),
    wordpress: await freePort(),
    php: await freePort(),
    node: await freePort(),
  };
  const children: ChildProcess[] = [];
  let site: WordpressSite | undefined;
  let stopStatic = async () => {};
  return {
    origins: Object.values(ports).map((port) => `http://127.0.0.1:${port}`),
    async start(proxyUrl) {
      const wordpress = join(dir, 'wordpress');
      const plain = join(dir, 'plain');
      mkdirSync(wordpress, { recursive: true });
      mkdirSync(plain, { recursive: true });
      // The static page as a file server serves it: at / only.
      const page = addressed(readmeExample('html'), proxyUrl);
      const server = createServer((req, res) => {
        const found = new URL(req.url ?? '/', 'http://page').pathname === '/';
        res.writeHead(found ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(found ? page : 'Not found');
      }).listen(ports.static, '127.0.0.1');
      await once(server, 'listening');
      stopStatic = () => new Promise((resolve) => server.close(() => resolve()));
      site = await startWordpressSite({ dir: wordpress, port: ports.wordpress });
      const jobs = await wordpressBoard(site, proxyUrl);
      const php = await serveReadmePage('PHP', { dir: plain, port: ports.php, proxyUrl });
      const node = await serveReadmePage('Node', { dir: plain, port: ports.node, proxyUrl });
      children.push(php.child, node.child);
      return [
        { recipe: 'static page (as written)', url: `http://127.0.0.1:${ports.static}/` },
        { recipe: 'WordPress', url: jobs },
        { recipe: 'plain PHP', url: php.url },
        { recipe: 'plain Node', url: node.url },
      ];
    },
    async stop() {
      for (const child of children) child.kill();
      await site?.close();
      await stopStatic();
    },
  };
}

/** The plugin installed as its folder, activated, set to this proxy and a "Jobs" page holding the shortcode: that page's URL. */
async function wordpressBoard(site: WordpressSite, proxyUrl: string): Promise<string> {
  cpSync(PLUGIN_DIR, join(site.root, 'wp-content', 'plugins', 'jobboard-connector'), { recursive: true });
  const activated = await site.php(`require_once ABSPATH . 'wp-admin/includes/plugin.php';
$result = activate_plugin( 'jobboard-connector/jobboard-connector.php' );
echo is_wp_error( $result ) ? $result->get_error_message() : 'active';`);
  if (activated !== 'active') throw new Error(`The plugin did not activate: ${activated}`);
  const id = Number(
    await site.php(
      `echo wp_insert_post( array( 'post_type' => 'page', 'post_status' => 'publish', 'post_name' => 'jobs', 'post_title' => 'Jobs', 'post_content' => '[jobboard_offers]' ) );`,
    ),
  );
  if (!(id > 0)) throw new Error('WordPress did not publish the jobs page');
  // Open to search engines, as a live site is (the test site is installed hidden from them: noindex).
  await site.php(`update_option( 'blog_public', 1 );`);
  await site.php(
    `update_option( 'jobboard_connector_settings', array( 'proxy_url' => '${proxyUrl}', 'lang' => 'fr', 'offer_page' => ${id} ) );`,
  );
  return `${site.url}/jobs/`;
}
