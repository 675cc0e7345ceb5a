// The tests of the widget's apply form and campaign tracking, against the
// active mutant (widget-mutant-config.mjs); the command may name fewer files
// (--files).
import { widgetMutantConfig } from './widget-mutant-config.mjs';

export default widgetMutantConfig([
  'widget/src/apply/campaign-tracking.test.ts',
  'widget/src/apply/apply-sending.test.ts',
  'widget/src/apply/apply.test.ts',
  'widget/src/apply/apply-options.test.ts',
  'widget/src/apply/apply-unavailable.test.ts',
]);
