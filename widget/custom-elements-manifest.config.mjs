// Custom Elements Manifest analyzer config (`npm run analyze`).
export default {
  globs: ['widget/src/**/*.ts'],
  exclude: ['**/*.test.ts', 'widget/src/generated/**', 'widget/**/*test-support.ts'],
  litelement: true,
  plugins: [
    {
      // The analyzer guesses event names from `dispatchEvent(new X(arg))` and
      // records the argument (campaignId) as an event; the real events are the
      // ones documented with @event on each class.
      name: 'jobboard-documented-events-only',
      packageLinkPhase({ customElementsManifest }) {
        for (const mod of customElementsManifest.modules) {
          for (const declaration of mod.declarations ?? []) {
            if (declaration.events)
              declaration.events = declaration.events.filter((e) => e.name?.startsWith('jobboard-'));
          }
        }
      },
    },
    {
      // The analyzer takes every entry of `static properties` for an attribute,
      // `state: true` ones too; those are the private fields, never attributes.
      name: 'jobboard-no-attribute-for-state',
      packageLinkPhase({ customElementsManifest }) {
        for (const mod of customElementsManifest.modules) {
          for (const declaration of mod.declarations ?? []) {
            const states = new Set(
              (declaration.members ?? [])
                .filter((m) => m.kind === 'field' && m.privacy === 'private')
                .map((m) => m.name),
            );
            for (const member of declaration.members ?? []) if (states.has(member.name)) delete member.attribute;
            if (declaration.attributes)
              declaration.attributes = declaration.attributes.filter((a) => !states.has(a.fieldName));
          }
        }
      },
    },
    {
      // Members the elements inherit from their shared base (endpoint, lang)
      // come first, as they did when each element declared them; attributes
      // follow their properties' order (the `field-*` ones, documented on
      // their generated properties, would otherwise come before the rest).
      name: 'jobboard-attribute-order',
      packageLinkPhase({ customElementsManifest }) {
        for (const mod of customElementsManifest.modules) {
          for (const declaration of mod.declarations ?? []) {
            if (!declaration.members) continue;
            const members = [
              ...declaration.members.filter((m) => m.inheritedFrom),
              ...declaration.members.filter((m) => !m.inheritedFrom),
            ];
            declaration.members = members;
            const place = (a) => members.findIndex((m) => m.name === a.fieldName);
            declaration.attributes?.sort((a, b) => place(a) - place(b));
          }
        }
      },
    },
  ],
};
