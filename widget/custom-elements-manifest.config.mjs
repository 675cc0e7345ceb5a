// Custom Elements Manifest analyzer config (`npm run analyze`).
export default {
  globs: ['widget/src/**/*.ts'],
  exclude: ['**/*.test.ts', 'widget/src/generated/**', 'widget/src/internal/test-helpers.ts'],
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
            if (declaration.events) declaration.events = declaration.events.filter((e) => e.name?.startsWith('jobboard-'));
          }
        }
      },
    },
  ],
};
