<?php
/**
 * What this site asks the proxy: the offers' fragment (GET /embed/campaigns)
 * and an offer's head tags (GET /embed/campaigns/head), each at most once a
 * request. The proxy is the one address this plugin calls.
 *
 * @package JobboardConnector
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The list's search, filters and page in a page's query string: the only ones
 * forwarded to the proxy (with the open offer's id), since a link to the page
 * can carry any parameter. The proxy's FORWARDED_PAGE_PARAMS, the offer's aside.
 */
const JOBBOARD_CONNECTOR_LIST_PARAMS = array( 'q', 'job_type', 'working_time', 'city', 'near', 'radius_km', 'salary_min', 'sort', 'page' );

/** The open offer's id in a page's query string, unless offer_param renames it. */
const JOBBOARD_CONNECTOR_OFFER_PARAM = 'offer';

/** The element's presets, by option: the query parameter that renders each on the proxy. */
const JOBBOARD_CONNECTOR_PRESETS = array(
	'company_id' => 'preset_company_id',
	'job_type'   => 'preset_job_type',
	'city'       => 'preset_city',
);

/** The element's largest per-page. */
const JOBBOARD_CONNECTOR_PER_PAGE_MAX = 50;

/** Seconds this site waits for the proxy before serving the empty element, which fetches the offers itself. */
const JOBBOARD_CONNECTOR_TIMEOUT = 3;

/**
 * The language of the widget: the setting's, or the site's locale's when it is one of the widget's.
 *
 * @return string fr, en or es.
 */
function jobboard_connector_lang() {
	$lang = jobboard_connector_settings()['lang'];
	if ( in_array( $lang, JOBBOARD_CONNECTOR_LANGUAGES, true ) ) {
		return $lang;
	}
	$locale = strtolower( substr( determine_locale(), 0, 2 ) );
	return in_array( $locale, JOBBOARD_CONNECTOR_LANGUAGES, true ) ? $locale : 'en';
}

/**
 * A list's options, from a shortcode's or a block's: each checked, and left to
 * the settings or the proxy when absent or wrong.
 *
 * @param array $given lang, per_page, company_id, job_type, city and offer_param, as given.
 * @return array{lang: string, per_page: int|null, company_id: int|null, job_type: string|null, city: string|null, offer_param: string}
 */
function jobboard_connector_list_options( $given ) {
	$text        = static function ( $name ) use ( $given ) {
		return isset( $given[ $name ] ) && is_scalar( $given[ $name ] ) ? trim( (string) $given[ $name ] ) : '';
	};
	$lang        = strtolower( $text( 'lang' ) );
	$per_page    = (int) $text( 'per_page' );
	$company_id  = (int) $text( 'company_id' );
	$offer_param = $text( 'offer_param' );
	return array(
		'lang'        => in_array( $lang, JOBBOARD_CONNECTOR_LANGUAGES, true ) ? $lang : jobboard_connector_lang(),
		'per_page'    => $per_page >= 1 && $per_page <= JOBBOARD_CONNECTOR_PER_PAGE_MAX ? $per_page : null,
		'company_id'  => $company_id > 0 ? $company_id : null,
		'job_type'    => '' === $text( 'job_type' ) ? null : $text( 'job_type' ),
		'city'        => '' === $text( 'city' ) ? null : $text( 'city' ),
		'offer_param' => preg_match( '/^[A-Za-z][A-Za-z0-9_-]{0,39}$/', $offer_param ) ? $offer_param : JOBBOARD_CONNECTOR_OFFER_PARAM,
	);
}

/**
 * The query of GET /embed/campaigns for a list on a page asked with `$request`:
 * the list's parameters of the page's query string, then the list's own options.
 *
 * @param array $options The list's options (jobboard_connector_list_options).
 * @param array $request The page's query string, unslashed.
 * @return array<string, string>
 */
function jobboard_connector_embed_query( $options, $request ) {
	$query = array();
	foreach ( array_merge( array( $options['offer_param'] ), JOBBOARD_CONNECTOR_LIST_PARAMS ) as $name ) {
		if ( isset( $request[ $name ] ) && is_string( $request[ $name ] ) ) {
			$query[ $name ] = $request[ $name ];
		}
	}
	if ( JOBBOARD_CONNECTOR_OFFER_PARAM !== $options['offer_param'] ) {
		$query['offer_param'] = $options['offer_param'];
	}
	$query['lang'] = $options['lang'];
	if ( null !== $options['per_page'] ) {
		$query['per_page'] = (string) $options['per_page'];
	}
	foreach ( JOBBOARD_CONNECTOR_PRESETS as $option => $param ) {
		if ( null !== $options[ $option ] ) {
			$query[ $param ] = (string) $options[ $option ];
		}
	}
	return $query;
}

/**
 * The page's query string, as the visitor's link gave it.
 *
 * @return array
 */
function jobboard_connector_request() {
	// A public page's query, read not acted on: the proxy parses and checks every value it is given.
	// Sanitising here would give the proxy other words than the element reads from the same address.
	// phpcs:ignore WordPress.Security.NonceVerification.Recommended, WordPress.Security.ValidatedSanitizedInput.InputNotSanitized
	return wp_unslash( $_GET );
}

/**
 * The open offer's id in the page's query string, or null.
 *
 * @param array $options The list's options.
 * @return string|null
 */
function jobboard_connector_requested_offer( $options ) {
	$request = jobboard_connector_request();
	$offer   = isset( $request[ $options['offer_param'] ] ) ? $request[ $options['offer_param'] ] : null;
	return is_string( $offer ) && preg_match( '/^[1-9][0-9]{0,15}$/', $offer ) ? $offer : null;
}

/**
 * GET `$path` of the proxy, once per request for each address. Answers its
 * status and HTML when its status is one of `$statuses` and it is HTML, else
 * null (an error, a timeout, a problem+json, a redirect: nothing to insert).
 *
 * @param string $path     The proxy's path.
 * @param array  $query    The query.
 * @param int[]  $statuses The statuses whose HTML is wanted.
 * @return array{status: int, html: string}|null
 */
function jobboard_connector_proxy_get( $path, $query, $statuses ) {
	static $answers = array();
	$url            = jobboard_connector_proxy_url() . $path . '?' . http_build_query( $query, '', '&', PHP_QUERY_RFC3986 );
	if ( ! array_key_exists( $url, $answers ) ) {
		$response        = wp_remote_get(
			$url,
			array(
				'timeout'     => JOBBOARD_CONNECTOR_TIMEOUT,
				// Nowhere but the proxy: a redirect is not followed.
				'redirection' => 0,
				'headers'     => array( 'Accept' => 'text/html' ),
			)
		);
		$answers[ $url ] = jobboard_connector_html_answer( $response, $statuses );
	}
	return $answers[ $url ];
}

/**
 * The status and HTML of an answer with one of `$statuses` and an HTML body, else null.
 *
 * @param array|WP_Error $response The answer of wp_remote_get.
 * @param int[]          $statuses The statuses whose HTML is wanted.
 * @return array{status: int, html: string}|null
 */
function jobboard_connector_html_answer( $response, $statuses ) {
	if ( is_wp_error( $response ) ) {
		return null;
	}
	$status = (int) wp_remote_retrieve_response_code( $response );
	$type   = wp_remote_retrieve_header( $response, 'content-type' );
	$type   = is_array( $type ) ? (string) reset( $type ) : (string) $type;
	if ( ! in_array( $status, $statuses, true ) || 0 !== stripos( $type, 'text/html' ) ) {
		return null;
	}
	return array(
		'status' => $status,
		'html'   => wp_remote_retrieve_body( $response ),
	);
}

/**
 * The list's fragment for this page: the proxy's answer on 200, 404 (an offer
 * never published) and 410 (an offer closed since), else null.
 *
 * @param array $options The list's options.
 * @return array{status: int, html: string}|null
 */
function jobboard_connector_list_fragment( $options ) {
	$query = jobboard_connector_embed_query( $options, jobboard_connector_request() );
	return jobboard_connector_proxy_get( '/embed/campaigns', $query, array( 200, 404, 410 ) );
}

/**
 * An open offer's title and head tags, read from the proxy's GET /embed/campaigns/head; null when it has none.
 *
 * @param string $offer The offer's id.
 * @return array{title: string, tags: array<int, array{0: string, 1: string, 2: string}>}|null
 */
function jobboard_connector_offer_head( $offer ) {
	$answer = jobboard_connector_proxy_get( '/embed/campaigns/head', array( 'offer' => $offer ), array( 200 ) );
	if ( null === $answer ) {
		return null;
	}
	$decode = static function ( $text ) {
		return html_entity_decode( $text, ENT_QUOTES | ENT_HTML5, 'UTF-8' );
	};
	// Read as data and written again escaped: <title>, then <meta name|property … content> and <link rel … href>.
	$title = preg_match( '#<title>([^<]*)</title>#', $answer['html'], $found ) ? $decode( $found[1] ) : '';
	preg_match_all( '#<(?:meta|link) (name|property|rel)="([^"]*)" (?:content|href)="([^"]*)">#', $answer['html'], $found, PREG_SET_ORDER );
	$tags = array();
	foreach ( $found as $tag ) {
		$tags[] = array( $tag[1], $decode( $tag[2] ), $decode( $tag[3] ) );
	}
	return array(
		'title' => $title,
		'tags'  => $tags,
	);
}
