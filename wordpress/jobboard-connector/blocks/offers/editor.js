// The Job offers block in the editor: its options in the sidebar, and a
// placeholder in the page (the offers themselves are rendered on the server,
// from the proxy, when the page is viewed). Plain script on WordPress's
// globals: no build step.
(function (blocks, blockEditor, components, element, i18n) {
  'use strict';
  var el = element.createElement;
  var __ = i18n.__;

  var LANGUAGES = [
    { value: '', label: __('As in the settings', 'jobboard-connector') },
    { value: 'fr', label: __('French', 'jobboard-connector') },
    { value: 'en', label: __('English', 'jobboard-connector') },
    { value: 'es', label: __('Spanish', 'jobboard-connector') },
  ];

  /** A text field of the sidebar for a string attribute. */
  function textControl(props, name, label, help) {
    return el(components.TextControl, {
      label: label,
      help: help,
      value: props.attributes[name],
      onChange: function (value) {
        var change = {};
        change[name] = value;
        props.setAttributes(change);
      },
    });
  }

  /** A number field of the sidebar for an integer attribute (0: not set). */
  function numberControl(props, name, label, help, max) {
    return el(components.TextControl, {
      type: 'number',
      min: 0,
      max: max,
      label: label,
      help: help,
      value: props.attributes[name] || '',
      onChange: function (value) {
        var change = {};
        var number = parseInt(value, 10);
        change[name] = number > 0 ? number : 0;
        props.setAttributes(change);
      },
    });
  }

  blocks.registerBlockType('jobboard-connector/offers', {
    edit: function (props) {
      return el(
        'div',
        blockEditor.useBlockProps(),
        el(
          blockEditor.InspectorControls,
          null,
          el(
            components.PanelBody,
            { title: __('Offers', 'jobboard-connector') },
            el(components.SelectControl, {
              label: __('Language', 'jobboard-connector'),
              value: props.attributes.lang,
              options: LANGUAGES,
              onChange: function (value) {
                props.setAttributes({ lang: value });
              },
            }),
            numberControl(
              props,
              'perPage',
              __('Offers per page', 'jobboard-connector'),
              __('1 to 50; empty: the proxy’s default.', 'jobboard-connector'),
              50,
            ),
            numberControl(
              props,
              'companyId',
              __('Company', 'jobboard-connector'),
              __('Only this company’s offers (its id).', 'jobboard-connector'),
            ),
            textControl(
              props,
              'jobType',
              __('Contract type', 'jobboard-connector'),
              __('Only this contract type, as the API writes it (like Internship).', 'jobboard-connector'),
            ),
            textControl(
              props,
              'city',
              __('City', 'jobboard-connector'),
              __('Only this city’s offers.', 'jobboard-connector'),
            ),
            textControl(
              props,
              'offerParam',
              __('Offer parameter', 'jobboard-connector'),
              __('The query parameter of the open offer in the page’s address (default: offer).', 'jobboard-connector'),
            ),
          ),
        ),
        el(components.Placeholder, {
          icon: 'portfolio',
          label: __('Job offers', 'jobboard-connector'),
          instructions: __('The offers of your proxy show here when the page is viewed.', 'jobboard-connector'),
        }),
      );
    },
    save: function () {
      return null;
    },
  });
})(window.wp.blocks, window.wp.blockEditor, window.wp.components, window.wp.element, window.wp.i18n);
