<?php
/**
 * The widget's elements in posts: [jobboard_offers] and the Job offers block
 * (the proxy's server-rendered <jobboard-campaigns>), [jobboard_apply] (one
 * offer's <jobboard-apply>), and the widget's script tag.
 *
 * @package JobboardConnector
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/** The handle of the widget's script. */
const JOBBOARD_CONNECTOR_SCRIPT = 'jobboard-connector-widget';

/** The shortcodes and the block. */
function jobboard_connector_register_elements() {
	add_shortcode( 'jobboard_offers', 'jobboard_connector_offers_shortcode' );
	add_shortcode( 'jobboard_apply', 'jobboard_connector_apply_shortcode' );
	register_block_type( JOBBOARD_CONNECTOR_DIR . '/blocks/offers', array( 'render_callback' => 'jobboard_connector_offers_block' ) );
	wp_set_script_translations( 'jobboard-connector-offers-editor-script', 'jobboard-connector' );
}

/**
 * A [jobboard_offers] shortcode's options: lang, per_page, company_id, job_type, city and offer_param.
 *
 * @param array $atts The shortcode's attributes.
 * @return array
 */
function jobboard_connector_shortcode_options( $atts ) {
	$defaults = array(
		'lang'        => '',
		'per_page'    => '',
		'company_id'  => '',
		'job_type'    => '',
		'city'        => '',
		'offer_param' => '',
	);
	return jobboard_connector_list_options( shortcode_atts( $defaults, $atts, 'jobboard_offers' ) );
}

/**
 * The block's options, from its attributes (block.json).
 *
 * @param array $attributes The block's attributes.
 * @return array
 */
function jobboard_connector_block_options( $attributes ) {
	$names = array(
		'lang'        => 'lang',
		'per_page'    => 'perPage',
		'company_id'  => 'companyId',
		'job_type'    => 'jobType',
		'city'        => 'city',
		'offer_param' => 'offerParam',
	);
	$given = array();
	foreach ( $names as $option => $attribute ) {
		$given[ $option ] = isset( $attributes[ $attribute ] ) ? $attributes[ $attribute ] : '';
	}
	return jobboard_connector_list_options( $given );
}

/**
 * [jobboard_offers lang="fr" per_page="10" company_id="3" job_type="Internship" city="Lyon" offer_param="job"]
 *
 * @param array|string $atts The shortcode's attributes.
 * @return string
 */
function jobboard_connector_offers_shortcode( $atts ) {
	return jobboard_connector_render_offers( jobboard_connector_shortcode_options( is_array( $atts ) ? $atts : array() ) );
}

/**
 * The Job offers block.
 *
 * @param array $attributes The block's attributes.
 * @return string
 */
function jobboard_connector_offers_block( $attributes ) {
	return sprintf( '<div %1$s>%2$s</div>', get_block_wrapper_attributes(), jobboard_connector_render_offers( jobboard_connector_block_options( $attributes ) ) );
}

/**
 * The offers: the proxy's fragment when it answered 200, 404 or 410 with HTML
 * (the proxy's own markup, trusted as the board's service), else the empty
 * element, which fetches the offers itself in the browser.
 *
 * @param array $options The list's options.
 * @return string
 */
function jobboard_connector_render_offers( $options ) {
	$proxy = jobboard_connector_proxy_url();
	if ( '' === $proxy ) {
		return jobboard_connector_not_configured();
	}
	jobboard_connector_enqueue_widget();
	$answer = jobboard_connector_list_fragment( $options );
	if ( null !== $answer ) {
		return $answer['html'];
	}
	$attributes = array(
		'lang'        => $options['lang'],
		'per-page'    => $options['per_page'],
		'company-id'  => $options['company_id'],
		'job-type'    => $options['job_type'],
		'city'        => $options['city'],
		'offer-param' => JOBBOARD_CONNECTOR_OFFER_PARAM === $options['offer_param'] ? null : $options['offer_param'],
	);
	$html       = '<jobboard-campaigns endpoint="' . esc_url( $proxy ) . '"';
	foreach ( $attributes as $name => $value ) {
		if ( null !== $value ) {
			$html .= ' ' . $name . '="' . esc_attr( (string) $value ) . '"';
		}
	}
	return $html . '></jobboard-campaigns>';
}

/**
 * [jobboard_apply campaign="12" lang="fr"]: the apply form of one offer.
 *
 * @param array|string $atts The shortcode's attributes.
 * @return string
 */
function jobboard_connector_apply_shortcode( $atts ) {
	$atts  = shortcode_atts(
		array(
			'campaign' => '',
			'lang'     => '',
		),
		is_array( $atts ) ? $atts : array(),
		'jobboard_apply'
	);
	$proxy = jobboard_connector_proxy_url();
	if ( '' === $proxy ) {
		return jobboard_connector_not_configured();
	}
	$campaign = trim( (string) $atts['campaign'] );
	if ( ! preg_match( '/^[1-9][0-9]{0,15}$/', $campaign ) ) {
		return current_user_can( 'edit_posts' )
			? '<p>' . esc_html__( 'The [jobboard_apply] shortcode needs the id of an offer: [jobboard_apply campaign="12"].', 'jobboard-connector' ) . '</p>'
			: '';
	}
	jobboard_connector_enqueue_widget();
	$lang = jobboard_connector_list_options( array( 'lang' => $atts['lang'] ) )['lang'];
	return sprintf(
		'<jobboard-apply endpoint="%1$s" campaign-id="%2$s" lang="%3$s"></jobboard-apply>',
		esc_url( $proxy ),
		esc_attr( $campaign ),
		esc_attr( $lang )
	);
}

/**
 * What a page shows before the proxy's address is set: a hint for those who can set it, nothing for visitors.
 *
 * @return string
 */
function jobboard_connector_not_configured() {
	if ( ! current_user_can( 'manage_options' ) ) {
		return '';
	}
	return sprintf(
		'<p><a href="%1$s">%2$s</a></p>',
		esc_url( admin_url( 'options-general.php?page=jobboard-connector' ) ),
		esc_html__( "The job offers show here once the proxy's address is set in Settings → Jobboard Connector.", 'jobboard-connector' )
	);
}

/** The widget's script, from the proxy (a module: the script-tag build is an ES module). */
function jobboard_connector_enqueue_widget() {
	$proxy = jobboard_connector_proxy_url();
	if ( '' !== $proxy ) {
		// No version: the proxy serves its current build at this address, and a ?ver= would only change the URL.
		wp_enqueue_script( JOBBOARD_CONNECTOR_SCRIPT, $proxy . '/widget.js', array(), null, false ); // phpcs:ignore WordPress.WP.EnqueuedResourceParameters.MissingVersion
	}
}

/**
 * Makes the widget's script tag a module's (WordPress 6.1 has no module scripts of its own).
 *
 * @param string $tag    The script tag.
 * @param string $handle The script's handle.
 * @return string
 */
function jobboard_connector_module_script_tag( $tag, $handle ) {
	if ( JOBBOARD_CONNECTOR_SCRIPT !== $handle ) {
		return $tag;
	}
	$tag = preg_replace( '/\stype=([\'"])[^\'"]*\1/', '', $tag );
	return str_replace( '<script ', '<script type="module" ', $tag );
}
