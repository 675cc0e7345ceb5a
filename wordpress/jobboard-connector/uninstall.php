<?php
/**
 * Deleting the plugin removes its one option (its settings), on every site of a network.
 *
 * @package JobboardConnector
 */

if ( ! defined( 'WP_UNINSTALL_PLUGIN' ) ) {
	exit;
}

if ( is_multisite() ) {
	$jobboard_connector_sites = get_sites(
		array(
			'fields' => 'ids',
			'number' => 0,
		)
	);
	foreach ( $jobboard_connector_sites as $jobboard_connector_site ) {
		switch_to_blog( $jobboard_connector_site );
		delete_option( 'jobboard_connector_settings' );
		restore_current_blog();
	}
} else {
	delete_option( 'jobboard_connector_settings' );
}
