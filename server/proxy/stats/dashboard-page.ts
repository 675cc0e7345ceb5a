// The dashboard's HTML: the period chooser, the funnel and the days as charts
// each with its table beside it (the charts' accessible alternative, and the
// page without script), the offers and the sources as sortable tables, the
// companies' outcomes, and the offer checks. Everything written is escaped;
// the charts' data travels in a JSON block, which no browser executes, read
// by the page's own script. The page's policy allows its two scripts (from
// /dashboard/) and its one style sheet (by hash), nothing else.
import { createHash } from 'node:crypto';
import type { Locale } from '../../contract/index.ts';
import { LOCALES } from '../../contract/index.ts';
import { DEFAULT_STATS_DAYS, FUNNEL_STAGES, MAX_STATS_DAYS } from '../../public-api/funnel.ts';
import type { FunnelStage, StatsReport } from '../../public-api/funnel.ts';
import { escapeMarkup } from '../http/markup.ts';
import { pageHead } from '../http/page-head.ts';
import { CHART_IDS } from './dashboard-charts.ts';
import type { DashboardChartData } from './dashboard-charts.ts';
import {
  checksTable,
  daysTable,
  formatNumber,
  formatRate,
  offersTable,
  outcomesTable,
  sourcesTable,
} from './dashboard-tables.ts';
import type { TableContext } from './dashboard-tables.ts';
import type { OfferChecksView } from './dashboard-checks.ts';
import { DASHBOARD_TEXTS, fill } from './dashboard-texts.ts';

export interface DashboardView {
  lang: Locale;
  report: StatsReport;
  /** The stage the offers are sorted by, and the one the sources are. */
  sort: FunnelStage;
  sourcesSort: FunnelStage;
  /** The page's own query, kept in its links and its form. */
  query: Record<string, string>;
  paths: { dashboard: string; stats: string; scripts: string[] };
  /** The offers the offer checks found problems in. */
  offerChecks: OfferChecksView;
  /** True when the period asked could not be read: the page shows the default one and says so. */
  invalid: boolean;
}

/** The stages of the funnel, each after the one it is a share of. */
const FLOW = ['listed', 'opened', 'started', 'submitted', 'received', 'delivered'] as const;
/** How an application that was received ended when not delivered: a share of the received ones. */
const LOSSES = ['rejected', 'dead'] as const;

// Dark text on white, a blue link: contrast over WCAG AA's 4.5:1.
const STYLE =
  'body{margin:0;font:1rem/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fff}header,main{max-width:72rem;margin:0 auto;padding:0 1rem}' +
  'a{color:#0b57d0}h1{font-size:1.6rem;margin:1rem 0 .5rem}h2{font-size:1.25rem;margin-top:2rem}' +
  'nav ul{list-style:none;display:flex;gap:1rem;padding:0;margin:0}[aria-current]{font-weight:700}' +
  'form{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end}fieldset{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end;border:1px solid #767676;padding:.5rem 1rem}' +
  'label{display:flex;flex-direction:column;font-weight:600}input,button{font:inherit;padding:.25rem .5rem}' +
  '.chart{position:relative;height:22rem;margin:1rem 0}.scroll{overflow-x:auto;max-width:100%}' +
  'table{border-collapse:collapse;margin:.5rem 0}caption{text-align:left;font-weight:600}th,td{padding:.25rem .6rem;border-bottom:1px solid #d0d0d0;text-align:left;vertical-align:top}' +
  '.n{text-align:right;font-variant-numeric:tabular-nums}th[aria-sort]::after{content:" ▼"}th[aria-sort],th a{white-space:nowrap}.id,.none{color:#555}details{margin:1rem 0}td ul{margin:0;padding-left:1rem}.source{display:block;color:#555;font-size:.875rem;overflow-wrap:anywhere}';

/** The page's Content-Security-Policy: its own scripts, its style, its form; nothing else. */
export const DASHBOARD_CSP = `default-src 'none'; script-src 'self'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

const e = escapeMarkup;

/** JSON for a script block: no `<` (no `</script>`), no `>` nor `&`, whatever a title holds. */
function jsonBlock(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function dayOf(lang: Locale, day: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(Date.parse(`${day}T00:00:00Z`));
}

function shortDayOf(lang: Locale, day: string): string {
  return new Intl.DateTimeFormat(lang, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    Date.parse(`${day}T00:00:00Z`),
  );
}

function linkerOf(view: DashboardView): TableContext['linkTo'] {
  return (changes) => `${view.paths.dashboard}?${new URLSearchParams({ ...view.query, ...changes }).toString()}`;
}

function chartData(view: DashboardView): DashboardChartData {
  const t = DASHBOARD_TEXTS[view.lang];
  const { totals, days } = view.report;
  const outcomes = Object.entries(totals.outcomes).sort(([a, m], [b, n]) => n - m || a.localeCompare(b));
  return {
    funnel: {
      label: t.funnel.count,
      labels: [...FLOW.map((stage) => t.stages[stage]), ...outcomes.map(([status]) => status)],
      values: [...FLOW.map((stage) => totals[stage]), ...outcomes.map(([, n]) => n)],
    },
    days: {
      labels: days.map(({ day }) => shortDayOf(view.lang, day)),
      // Listed dwarfs the others: its line starts hidden (a click on its legend shows it).
      series: FLOW.map((stage) => ({
        label: t.stages[stage],
        values: days.map(({ counts }) => counts[stage]),
        hidden: stage === 'listed',
      })),
    },
  };
}

function languageNav(view: DashboardView, linkTo: TableContext['linkTo']): string {
  const t = DASHBOARD_TEXTS[view.lang];
  const names: Record<Locale, string> = { en: 'English', fr: 'Français', es: 'Español' };
  const items = LOCALES.map(
    (lang) =>
      `<li><a href="${e(linkTo({ lang }))}" hreflang="${lang}" lang="${lang}"${lang === view.lang ? ' aria-current="page"' : ''}>${names[lang]}</a></li>`,
  );
  return `<nav aria-label="${e(t.languages)}"><ul>${items.join('')}</ul></nav>`;
}

function periodForm(view: DashboardView): string {
  const t = DASHBOARD_TEXTS[view.lang];
  const { from, to } = view.report;
  const kept = Object.entries(view.query)
    .filter(([name]) => name !== 'from' && name !== 'to')
    .map(([name, value]) => `<input type="hidden" name="${e(name)}" value="${e(value)}">`);
  const statsQuery = new URLSearchParams({
    from,
    to,
    sort: view.sort,
    ...(view.query.limit === undefined ? {} : { limit: view.query.limit }),
  });
  const download = (format: 'csv' | 'json') => `${view.paths.stats}?${statsQuery.toString()}&format=${format}`;
  return `<form method="get" action="${e(view.paths.dashboard)}"><fieldset><legend>${e(t.period.legend)}</legend>
<label for="from">${e(t.period.from)}<input type="date" id="from" name="from" value="${e(from)}" required></label>
<label for="to">${e(t.period.to)}<input type="date" id="to" name="to" value="${e(to)}" required></label>
${kept.join('')}<button type="submit">${e(t.period.show)}</button></fieldset></form>
<p>${e(fill(t.period.showing, { from: dayOf(view.lang, from), to: dayOf(view.lang, to) }))} ${e(t.downloads.label)} <a href="${e(download('csv'))}" download>${e(t.downloads.csv)}</a>, <a href="${e(download('json'))}">${e(t.downloads.json)}</a>.</p>`;
}

function funnelSection(view: DashboardView, ctx: TableContext): string {
  const t = DASHBOARD_TEXTS[view.lang];
  const { totals } = view.report;
  const lang = view.lang;
  const before: Partial<Record<FunnelStage, FunnelStage>> = { rejected: 'received', dead: 'received' };
  FLOW.forEach((stage, i) => i > 0 && (before[stage] = FLOW[i - 1]));
  const rows = [...FLOW, ...LOSSES].map((stage) => {
    const previous = before[stage];
    const ofPrevious = previous === undefined ? '–' : formatRate(lang, totals[stage], totals[previous]);
    return `<tr><th scope="row">${e(t.stages[stage])}</th><td class="n">${formatNumber(lang, totals[stage])}</td><td class="n">${ofPrevious}</td><td class="n">${formatRate(lang, totals[stage], totals.listed)}</td></tr>`;
  });
  const summary = FLOW.map((stage) => `${t.stages[stage]} ${formatNumber(lang, totals[stage])}`).join(', ');
  const label = fill(t.funnel.chart, { from: dayOf(lang, view.report.from), to: dayOf(lang, view.report.to), summary });
  const ofListed = fill(t.funnel.ofStage, { stage: t.stages.listed.toLocaleLowerCase(lang) });
  return `<section aria-labelledby="funnel-heading"><h2 id="funnel-heading">${e(t.funnel.heading)}</h2>
<div class="chart"><canvas id="${CHART_IDS.funnel}" role="img" aria-label="${e(label)}"></canvas></div>
<table><thead><tr><th scope="col">${e(t.funnel.stage)}</th><th scope="col" class="n">${e(t.funnel.count)}</th><th scope="col" class="n">${e(t.funnel.ofPrevious)}</th><th scope="col" class="n">${e(ofListed)}</th></tr></thead><tbody>${rows.join('')}</tbody></table>
${outcomesTable(ctx, totals)}</section>`;
}

function daysSection(view: DashboardView, ctx: TableContext): string {
  const t = DASHBOARD_TEXTS[view.lang];
  const label = fill(t.days.chart, { from: dayOf(view.lang, view.report.from), to: dayOf(view.lang, view.report.to) });
  return `<section aria-labelledby="days-heading"><h2 id="days-heading">${e(t.days.heading)}</h2>
<div class="chart"><canvas id="${CHART_IDS.days}" role="img" aria-label="${e(label)}"></canvas></div>
<details><summary>${e(t.days.table)}</summary>${daysTable(ctx, view.report)}</details></section>`;
}

function section(id: string, heading: string, content: string): string {
  return `<section aria-labelledby="${id}-heading"><h2 id="${id}-heading">${e(heading)}</h2>\n${content}</section>`;
}

export function renderDashboardPage(view: DashboardView): string {
  const t = DASHBOARD_TEXTS[view.lang];
  const linkTo = linkerOf(view);
  const ctx: TableContext = { lang: view.lang, linkTo };
  const empty = FUNNEL_STAGES.every((stage) => view.report.totals[stage] === 0);
  const scripts = view.paths.scripts.map((src) => `<script src="${e(src)}" defer></script>`);
  return `${pageHead(view.lang, e(t.title), STYLE, ['<link rel="icon" href="data:,">', ...scripts])}
<body>
<header><h1>${e(t.title)}</h1>${languageNav(view, linkTo)}</header>
<main>
${view.invalid ? `<p role="alert">${e(fill(t.period.invalid, { max: MAX_STATS_DAYS, days: DEFAULT_STATS_DAYS }))}</p>` : ''}
${periodForm(view)}
${empty ? `<p>${e(t.empty)}</p>` : ''}
${funnelSection(view, ctx)}
${daysSection(view, ctx)}
${section('offers', t.offers.heading, offersTable(ctx, view.report, view.sort))}
${section('sources', t.sources.heading, sourcesTable(ctx, view.report, view.sourcesSort))}
${section('checks', t.checks.heading, checksTable(ctx, view.offerChecks))}
<script type="application/json" id="${CHART_IDS.data}">${jsonBlock(chartData(view))}</script>
</main>
</body>
</html>
`;
}
