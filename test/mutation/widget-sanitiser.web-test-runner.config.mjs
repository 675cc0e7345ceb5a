// The widget's sanitiser tests, against the active mutant (widget-mutant-config.mjs).
import { widgetMutantConfig } from './widget-mutant-config.mjs';

export default widgetMutantConfig('widget/src/internal/internal.test.ts');
