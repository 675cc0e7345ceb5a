<?php
/**
 * The editor script's dependencies (WordPress's script handles) and version.
 *
 * @package JobboardConnector
 */

return array(
	'dependencies' => array( 'wp-blocks', 'wp-block-editor', 'wp-components', 'wp-element', 'wp-i18n' ),
	'version'      => (string) filemtime( __DIR__ . '/editor.js' ),
);
