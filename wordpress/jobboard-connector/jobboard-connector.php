<?php
/**
 * Plugin Name:       Jobboard Connector
 * Plugin URI:        https://github.com/jobboard-connector/jobboard-connector
 * Description:       The job offers of your jobboard-connector proxy in your pages, rendered on the server for search engines, with their apply form.
 * Version:           0.2.0
 * Requires at least: 6.1
 * Requires PHP:      7.4
 * Author:            jobboard-connector developers
 * License:           GPL-2.0-or-later
 * License URI:       https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:       jobboard-connector
 *
 * @package JobboardConnector
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

define( 'JOBBOARD_CONNECTOR_DIR', __DIR__ );

require_once __DIR__ . '/includes/settings.php';
require_once __DIR__ . '/includes/proxy.php';
require_once __DIR__ . '/includes/offers-page.php';
require_once __DIR__ . '/includes/elements.php';

register_activation_hook( __FILE__, 'jobboard_connector_activate' );

add_action( 'admin_menu', 'jobboard_connector_add_settings_page' );
add_action( 'admin_init', 'jobboard_connector_register_settings' );
add_filter( 'plugin_action_links_' . plugin_basename( __FILE__ ), 'jobboard_connector_action_links' );

add_action( 'init', 'jobboard_connector_register_elements' );
add_filter( 'script_loader_tag', 'jobboard_connector_module_script_tag', 10, 2 );
add_filter( 'no_texturize_tags', 'jobboard_connector_no_texturize_tags' );

add_filter( 'pre_handle_404', 'jobboard_connector_keep_list_page', 10, 2 );
// Before redirect_canonical (priority 10), which would move ?page=2 of the list into the page's own paging.
add_action( 'template_redirect', 'jobboard_connector_prepare_offers_page', 1 );
add_action( 'wp_head', 'jobboard_connector_print_offer_head', 2 );
add_filter( 'document_title_parts', 'jobboard_connector_offer_title' );
