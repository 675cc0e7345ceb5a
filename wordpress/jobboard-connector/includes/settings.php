<?php
/**
 * Settings → Jobboard Connector: the proxy's address, the language and the
 * offer page, kept in one option through the Settings API.
 *
 * @package JobboardConnector
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/** The one option the plugin keeps (uninstall.php removes it). */
const JOBBOARD_CONNECTOR_OPTION = 'jobboard_connector_settings';

/** The widget's languages; "auto" follows the site's (or the visitor's, with a multilingual plugin) locale. */
const JOBBOARD_CONNECTOR_LANGUAGES = array( 'fr', 'en', 'es' );

/**
 * The settings before anything is saved.
 *
 * @return array{proxy_url: string, lang: string, offer_page: int}
 */
function jobboard_connector_default_settings() {
	return array(
		'proxy_url'  => '',
		'lang'       => 'auto',
		'offer_page' => 0,
	);
}

/**
 * The saved settings, each key present.
 *
 * @return array{proxy_url: string, lang: string, offer_page: int}
 */
function jobboard_connector_settings() {
	$saved = get_option( JOBBOARD_CONNECTOR_OPTION, array() );
	$saved = is_array( $saved ) ? $saved : array();
	return array_merge( jobboard_connector_default_settings(), array_intersect_key( $saved, jobboard_connector_default_settings() ) );
}

/**
 * The proxy's address without its trailing slash, or '' when not set yet.
 *
 * @return string
 */
function jobboard_connector_proxy_url() {
	return (string) jobboard_connector_settings()['proxy_url'];
}

/**
 * The proxy's address as given, cleaned; null when it is not an http(s) address of a host.
 * A path is kept (a proxy mounted under /jobs-api); a query or a fragment is not an address.
 *
 * @param string $given What the admin typed.
 * @return string|null
 */
function jobboard_connector_valid_proxy_url( $given ) {
	$given = trim( $given );
	if ( ! preg_match( '#^https?://#i', $given ) ) {
		return null;
	}
	$url   = esc_url_raw( $given, array( 'http', 'https' ) );
	$parts = wp_parse_url( $url );
	if ( '' === $url || ! is_array( $parts ) || empty( $parts['host'] ) || isset( $parts['query'] ) || isset( $parts['fragment'] ) || isset( $parts['user'] ) ) {
		return null;
	}
	if ( ! preg_match( '/^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/i', $parts['host'] ) ) {
		return null;
	}
	return untrailingslashit( $url );
}

/**
 * The Settings API's sanitize callback. A wrong value is refused with a message
 * and the saved one kept. Called twice on the first save (update_option, then
 * add_option): a value it answered is accepted as it is.
 *
 * @param mixed $input The submitted settings.
 * @return array{proxy_url: string, lang: string, offer_page: int}
 */
function jobboard_connector_sanitize_settings( $input ) {
	$clean = jobboard_connector_settings();
	$input = is_array( $input ) ? $input : array();

	if ( isset( $input['proxy_url'] ) && is_string( $input['proxy_url'] ) ) {
		$url = jobboard_connector_valid_proxy_url( $input['proxy_url'] );
		if ( '' === trim( $input['proxy_url'] ) ) {
			$clean['proxy_url'] = '';
		} elseif ( null === $url ) {
			add_settings_error(
				JOBBOARD_CONNECTOR_OPTION,
				'jobboard_connector_proxy_url',
				__( 'The proxy address must be a web address starting with http:// or https://, without a query, like https://jobs-proxy.example.org. The previous address is kept.', 'jobboard-connector' )
			);
		} else {
			$clean['proxy_url'] = $url;
		}
	}

	if ( isset( $input['lang'] ) && is_string( $input['lang'] ) ) {
		$lang = sanitize_key( $input['lang'] );
		if ( 'auto' === $lang || in_array( $lang, JOBBOARD_CONNECTOR_LANGUAGES, true ) ) {
			$clean['lang'] = $lang;
		}
	}

	if ( isset( $input['offer_page'] ) ) {
		$page = absint( $input['offer_page'] );
		if ( 0 === $page || 'page' === get_post_type( $page ) ) {
			$clean['offer_page'] = $page;
		}
	}
	return $clean;
}

/** Creates the option on activation, so that the first save is an update. */
function jobboard_connector_activate() {
	add_option( JOBBOARD_CONNECTOR_OPTION, jobboard_connector_default_settings() );
}

/** Registers the option, its section and its fields. */
function jobboard_connector_register_settings() {
	register_setting(
		'jobboard_connector',
		JOBBOARD_CONNECTOR_OPTION,
		array(
			'type'              => 'object',
			'sanitize_callback' => 'jobboard_connector_sanitize_settings',
			'default'           => jobboard_connector_default_settings(),
			'show_in_rest'      => false,
		)
	);
	add_settings_section( 'jobboard_connector_main', '', '__return_false', 'jobboard-connector' );
	$fields = array(
		'proxy_url'  => __( 'Proxy address', 'jobboard-connector' ),
		'lang'       => __( 'Language', 'jobboard-connector' ),
		'offer_page' => __( 'Offer page', 'jobboard-connector' ),
	);
	foreach ( $fields as $key => $label ) {
		add_settings_field(
			'jobboard_connector_' . $key,
			$label,
			'jobboard_connector_field_' . $key,
			'jobboard-connector',
			'jobboard_connector_main',
			array( 'label_for' => 'jobboard_connector_' . $key )
		);
	}
}

/** The proxy address field. */
function jobboard_connector_field_proxy_url() {
	printf(
		'<input type="url" class="regular-text code" id="jobboard_connector_proxy_url" name="%1$s[proxy_url]" value="%2$s" placeholder="https://jobs-proxy.example.org" aria-describedby="jobboard_connector_proxy_url_help">',
		esc_attr( JOBBOARD_CONNECTOR_OPTION ),
		esc_attr( jobboard_connector_proxy_url() )
	);
	printf(
		'<p class="description" id="jobboard_connector_proxy_url_help">%s</p>',
		esc_html__( 'The address of your jobboard-connector proxy, as your visitors reach it. Your pages load the widget from it, and this site asks it for the offers.', 'jobboard-connector' )
	);
}

/** The language field. */
function jobboard_connector_field_lang() {
	$names   = array(
		'auto' => __( "The site's language", 'jobboard-connector' ),
		'fr'   => __( 'French', 'jobboard-connector' ),
		'en'   => __( 'English', 'jobboard-connector' ),
		'es'   => __( 'Spanish', 'jobboard-connector' ),
	);
	$current = jobboard_connector_settings()['lang'];
	printf( '<select id="jobboard_connector_lang" name="%s[lang]">', esc_attr( JOBBOARD_CONNECTOR_OPTION ) );
	foreach ( $names as $value => $name ) {
		printf( '<option value="%1$s"%2$s>%3$s</option>', esc_attr( $value ), selected( $current, $value, false ), esc_html( $name ) );
	}
	echo '</select>';
}

/** The offer page field: one of the site's pages. */
function jobboard_connector_field_offer_page() {
	wp_dropdown_pages(
		array(
			'name'              => esc_attr( JOBBOARD_CONNECTOR_OPTION . '[offer_page]' ),
			'id'                => 'jobboard_connector_offer_page',
			'selected'          => (int) jobboard_connector_settings()['offer_page'],
			'show_option_none'  => esc_html__( '— The page showing the list —', 'jobboard-connector' ),
			'option_none_value' => '0',
		)
	);
	printf(
		'<p class="description">%s</p>',
		esc_html__( "The page where an offer's link leads (its canonical address). Put the [jobboard_offers] shortcode or the Job offers block on it.", 'jobboard-connector' )
	);
}

/** Adds Settings → Jobboard Connector. */
function jobboard_connector_add_settings_page() {
	add_options_page(
		__( 'Jobboard Connector', 'jobboard-connector' ),
		__( 'Jobboard Connector', 'jobboard-connector' ),
		'manage_options',
		'jobboard-connector',
		'jobboard_connector_settings_page'
	);
}

/** The settings page: the form (settings_fields writes its nonce), then what to set on the proxy. */
function jobboard_connector_settings_page() {
	if ( ! current_user_can( 'manage_options' ) ) {
		return;
	}
	echo '<div class="wrap"><h1>' . esc_html( get_admin_page_title() ) . '</h1>';
	echo '<form action="options.php" method="post">';
	settings_fields( 'jobboard_connector' );
	do_settings_sections( 'jobboard-connector' );
	submit_button();
	echo '</form>';
	jobboard_connector_proxy_hints();
	echo '</div>';
}

/** What the proxy needs to know of this site: its origin, and the address of an offer. */
function jobboard_connector_proxy_hints() {
	$home   = wp_parse_url( home_url() );
	$origin = ( isset( $home['scheme'] ) ? $home['scheme'] : 'https' ) . '://' . ( isset( $home['host'] ) ? $home['host'] : '' ) . ( isset( $home['port'] ) ? ':' . $home['port'] : '' );
	$page   = (int) jobboard_connector_settings()['offer_page'];
	echo '<h2>' . esc_html__( 'On the proxy', 'jobboard-connector' ) . '</h2><ul><li>';
	printf(
		/* translators: 1: the ALLOWED_ORIGINS variable, 2: this site's origin. */
		esc_html__( '%1$s must include %2$s.', 'jobboard-connector' ),
		'<code>ALLOWED_ORIGINS</code>',
		'<code>' . esc_html( $origin ) . '</code>'
	);
	echo '</li>';
	if ( 0 !== $page && 'publish' === get_post_status( $page ) ) {
		echo '<li>';
		printf(
			/* translators: 1: the BOARD_OFFER_URL variable, 2: the address of an offer on this site. */
			esc_html__( 'Set %1$s to %2$s for the sitemap and the canonical address of each offer.', 'jobboard-connector' ),
			'<code>BOARD_OFFER_URL</code>',
			'<code>' . esc_html( add_query_arg( 'offer', '{id}', get_permalink( $page ) ) ) . '</code>'
		);
		echo '</li>';
	}
	echo '</ul>';
}

/**
 * A Settings link beside Deactivate on the Plugins screen.
 *
 * @param string[] $links The plugin's action links.
 * @return string[]
 */
function jobboard_connector_action_links( $links ) {
	$url = admin_url( 'options-general.php?page=jobboard-connector' );
	array_unshift( $links, '<a href="' . esc_url( $url ) . '">' . esc_html__( 'Settings', 'jobboard-connector' ) . '</a>' );
	return $links;
}
