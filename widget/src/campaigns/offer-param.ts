/** The query parameter of the page's URL that names the open offer (`?offer=21`), unless the element's `offer-param` names another. */
export const DEFAULT_OFFER_PARAM = 'offer';
