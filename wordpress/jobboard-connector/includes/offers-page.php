<?php
/**
 * A page showing the offers: found on template_redirect, before anything is
 * sent, so that the page answers the proxy's 404 or 410, and an open offer's
 * title, description, links and canonical address go in its head.
 *
 * @package JobboardConnector
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The open offer's head on this page, once found: set with a value, read without.
 *
 * @param array|null $set The head to keep.
 * @return array{title: string, tags: array, offer: string, offer_param: string}|null
 */
function jobboard_connector_current_head( $set = null ) {
	static $head = null;
	if ( null !== $set ) {
		$head = $set;
	}
	return $head;
}

/**
 * The first list block in a tree of blocks, or null.
 *
 * @param array $blocks Parsed blocks.
 * @return array|null
 */
function jobboard_connector_find_block( $blocks ) {
	foreach ( $blocks as $block ) {
		if ( 'jobboard-connector/offers' === $block['blockName'] ) {
			return $block;
		}
		$inner = jobboard_connector_find_block( $block['innerBlocks'] );
		if ( null !== $inner ) {
			return $inner;
		}
	}
	return null;
}

/**
 * The options of the first list in a post: its block's, or its [jobboard_offers] shortcode's; null without one.
 *
 * @param WP_Post $post The post.
 * @return array|null
 */
function jobboard_connector_first_list( $post ) {
	if ( has_block( 'jobboard-connector/offers', $post ) ) {
		$block = jobboard_connector_find_block( parse_blocks( $post->post_content ) );
		if ( null !== $block ) {
			return jobboard_connector_block_options( $block['attrs'] );
		}
	}
	if ( ! has_shortcode( $post->post_content, 'jobboard_offers' ) ) {
		return null;
	}
	preg_match_all( '/' . get_shortcode_regex( array( 'jobboard_offers' ) ) . '/', $post->post_content, $found, PREG_SET_ORDER );
	foreach ( $found as $shortcode ) {
		// [[jobboard_offers]] is the shortcode's text, escaped.
		if ( '[' !== $shortcode[1] ) {
			$atts = shortcode_parse_atts( $shortcode[3] );
			return jobboard_connector_shortcode_options( is_array( $atts ) ? $atts : array() );
		}
	}
	return null;
}

/**
 * A post showing the offers, asked with the list's ?page=2, is found: WordPress
 * reads `page` as the post's own page (<!--nextpage-->), and would answer 404
 * for a post that has one.
 *
 * @param bool     $preempt  Whether the 404 handling is already skipped.
 * @param WP_Query $wp_query The main query.
 * @return bool
 */
function jobboard_connector_keep_list_page( $preempt, $wp_query ) {
	$request = jobboard_connector_request();
	if ( $preempt || ! isset( $request['page'] ) || ! $wp_query->is_singular() || ! $wp_query->post instanceof WP_Post ) {
		return $preempt;
	}
	if ( null === jobboard_connector_first_list( $wp_query->post ) || false !== strpos( $wp_query->post->post_content, '<!--nextpage-->' ) ) {
		return $preempt;
	}
	status_header( 200 );
	return true;
}

/**
 * On a post showing the offers: the widget's script, the proxy's status for a
 * missing offer, and an open offer's head.
 */
function jobboard_connector_prepare_offers_page() {
	if ( ! is_singular() || '' === jobboard_connector_proxy_url() ) {
		return;
	}
	$post = get_queried_object();
	if ( ! $post instanceof WP_Post ) {
		return;
	}
	$options = jobboard_connector_first_list( $post );
	if ( null === $options ) {
		return;
	}
	add_action( 'wp_enqueue_scripts', 'jobboard_connector_enqueue_widget' );
	$request = jobboard_connector_request();
	if ( isset( $request['page'] ) ) {
		// The list's ?page=2 is the list's: WordPress would redirect it to the post's own page 2 (/jobs/2/).
		add_filter( 'redirect_canonical', '__return_false' );
	}
	$answer = jobboard_connector_list_fragment( $options );
	if ( null === $answer ) {
		return;
	}
	if ( 200 !== $answer['status'] ) {
		// 404: never published; 410: closed since, so that search engines drop its page at once.
		status_header( $answer['status'] );
		return;
	}
	$offer = jobboard_connector_requested_offer( $options );
	$head  = null === $offer ? null : jobboard_connector_offer_head( $offer );
	if ( null === $head && ! jobboard_connector_seo_plugin_active() ) {
		// WordPress writes no description; search engines show the list's page with this one.
		add_action( 'wp_head', 'jobboard_connector_print_list_description', 2 );
	}
	if ( null !== $head ) {
		$head['offer']       = $offer;
		$head['offer_param'] = $options['offer_param'];
		jobboard_connector_current_head( $head );
		// The page's own canonical address would name the list, not the offer: the offer's replaces it.
		remove_action( 'wp_head', 'rel_canonical' );
	}
}

/**
 * Whether an SEO plugin writes the pages' descriptions: the list's is then left to it, not written twice.
 *
 * @return bool
 */
function jobboard_connector_seo_plugin_active() {
	foreach ( array( 'WPSEO_VERSION', 'RANK_MATH_VERSION', 'AIOSEO_VERSION', 'SEOPRESS_VERSION', 'THE_SEO_FRAMEWORK_VERSION' ) as $constant ) {
		if ( defined( $constant ) ) {
			return true;
		}
	}
	return false;
}

/** The list's description: the page's own excerpt when it has one, else a sentence naming the site. */
function jobboard_connector_print_list_description() {
	$post = get_queried_object();
	$text = $post instanceof WP_Post && has_excerpt( $post )
		? get_the_excerpt( $post )
		/* translators: %s: the site's name. */
		: sprintf( __( 'Job offers on %s: search them, read them and apply online.', 'jobboard-connector' ), get_bloginfo( 'name' ) );
	printf( '<meta name="description" content="%s">' . "\n", esc_attr( wp_strip_all_tags( $text ) ) );
}

/**
 * The open offer's address: on the offer page of the settings, else on this page.
 *
 * @param array $head The open offer's head.
 * @return string
 */
function jobboard_connector_offer_url( $head ) {
	$page = (int) jobboard_connector_settings()['offer_page'];
	$base = 0 !== $page && 'publish' === get_post_status( $page ) ? get_permalink( $page ) : get_permalink( get_queried_object_id() );
	return add_query_arg( $head['offer_param'], $head['offer'], $base );
}

/** The open offer's head tags, escaped; its canonical address from the proxy (BOARD_OFFER_URL) or the offer page. */
function jobboard_connector_print_offer_head() {
	$head = jobboard_connector_current_head();
	if ( null === $head ) {
		return;
	}
	$canonical = false;
	foreach ( $head['tags'] as $tag ) {
		list( $attribute, $name, $value ) = $tag;
		if ( 'rel' === $attribute ) {
			$canonical = $canonical || 'canonical' === $name;
			printf( '<link rel="%1$s" href="%2$s">' . "\n", esc_attr( $name ), esc_url( $value ) );
		} else {
			printf( '<meta %1$s="%2$s" content="%3$s">' . "\n", 'property' === $attribute ? 'property' : 'name', esc_attr( $name ), esc_attr( $value ) );
		}
	}
	if ( ! $canonical ) {
		printf( '<link rel="canonical" href="%s">' . "\n", esc_url( jobboard_connector_offer_url( $head ) ) );
	}
}

/**
 * The open offer's title in the document's title, before the site's name (WordPress escapes it).
 *
 * @param array $parts The title's parts.
 * @return array
 */
function jobboard_connector_offer_title( $parts ) {
	$head = jobboard_connector_current_head();
	if ( null !== $head && '' !== $head['title'] ) {
		$parts['title'] = $head['title'];
	}
	return $parts;
}

/**
 * Leaves the text of <template> alone: a block's output goes through wptexturize,
 * which would change the quotes and dashes of the offers' server-rendered text.
 *
 * @param string[] $tags The tags whose content is not texturized.
 * @return string[]
 */
function jobboard_connector_no_texturize_tags( $tags ) {
	$tags[] = 'template';
	return $tags;
}
