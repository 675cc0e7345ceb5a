// The dashboard's tables (dashboard-page.ts puts them in the page): each row
// with its funnel, the offers and the sources sortable by any stage through
// links (the server sorts: it works without script), the column sorted by
// marked with aria-sort. Every value written goes through escapeMarkup.
import type { Locale } from '../../contract/index.ts';
import { FUNNEL_STAGES } from '../../public-api/funnel.ts';
import type { FunnelCounts, FunnelStage, StatsReport } from '../../public-api/funnel.ts';
import { escapeMarkup } from '../http/markup.ts';
import type { OfferChecksView } from './dashboard-checks.ts';
import { DASHBOARD_TEXTS, fill } from './dashboard-texts.ts';

/** What the tables need to write their numbers and their sort links. */
export interface TableContext {
  lang: Locale;
  /** The page's URL with these parameters changed (the others kept). */
  linkTo(changes: Record<string, string>): string;
}

const e = escapeMarkup;

export function formatNumber(lang: Locale, n: number): string {
  return new Intl.NumberFormat(lang).format(n);
}

/** `part` of `whole` as a percentage in the page's language; an empty cell when there is no whole. */
export function formatRate(lang: Locale, part: number, whole: number): string {
  return whole === 0
    ? '–'
    : new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 }).format(part / whole);
}

/** A scrolling box around a wide table: focusable and named (apart from its section's name), so a keyboard can scroll it. */
export function scrollBox(lang: Locale, name: string, table: string): string {
  const label = fill(DASHBOARD_TEXTS[lang].table, { name });
  return `<div class="scroll" role="region" tabindex="0" aria-label="${e(label)}">${table}</div>`;
}

/** The stage columns' headers; with `sortParam`, each a link sorting by it, the current one marked. */
function stageHeaders(ctx: TableContext, sorted?: { param: string; stage: FunnelStage }): string {
  const t = DASHBOARD_TEXTS[ctx.lang];
  return FUNNEL_STAGES.map((stage) => {
    const name = t.stages[stage];
    if (sorted === undefined) return `<th scope="col" class="n">${e(name)}</th>`;
    const current = stage === sorted.stage;
    const link = `<a href="${e(ctx.linkTo({ [sorted.param]: stage }))}" title="${e(fill(t.offers.sortBy, { stage: name }))}">${e(name)}</a>`;
    return `<th scope="col" class="n"${current ? ' aria-sort="descending"' : ''}>${link}</th>`;
  }).join('');
}

function stageCells(ctx: TableContext, counts: FunnelCounts): string {
  return FUNNEL_STAGES.map((stage) => `<td class="n">${formatNumber(ctx.lang, counts[stage])}</td>`).join('');
}

/** The offers counted, in the report's order (the store sorts them by `sort`), each row with its funnel. */
export function offersTable(ctx: TableContext, report: StatsReport, sort: FunnelStage): string {
  const t = DASHBOARD_TEXTS[ctx.lang];
  const rows = report.offers.map(({ campaign_id, title, counts }) => {
    if (campaign_id === null)
      return `<tr><th scope="row">${e(t.offers.spontaneous)}</th>${stageCells(ctx, counts)}</tr>`;
    const name = title ?? fill(t.offers.unknown, { id: campaign_id });
    return `<tr><th scope="row">${e(name)} <span class="id">#${campaign_id}</span></th>${stageCells(ctx, counts)}</tr>`;
  });
  const shown = fill(t.offers.shown, {
    shown: formatNumber(ctx.lang, report.offers.length),
    total: formatNumber(ctx.lang, report.offers_total),
    stage: t.stages[sort].toLocaleLowerCase(ctx.lang),
  });
  return `<p id="offers-shown">${e(shown)}</p>${scrollBox(
    ctx.lang,
    t.offers.heading,
    `<table aria-describedby="offers-shown"><thead><tr><th scope="col">${e(t.offers.offer)}</th>${stageHeaders(ctx, { param: 'sort', stage: sort })}</tr></thead><tbody>${rows.join('')}</tbody></table>`,
  )}`;
}

/** The sources (channel and campaign parameters), sorted here by `sort`, most first. */
export function sourcesTable(ctx: TableContext, report: StatsReport, sort: FunnelStage): string {
  const t = DASHBOARD_TEXTS[ctx.lang];
  const sources = [...report.sources].sort(
    (a, b) =>
      b.counts[sort] - a.counts[sort] ||
      a.channel.localeCompare(b.channel) ||
      (a.utm_source ?? '').localeCompare(b.utm_source ?? '') ||
      (a.utm_campaign ?? '').localeCompare(b.utm_campaign ?? ''),
  );
  const shown = (value: string | null) =>
    value === null ? `<span class="none">${e(t.sources.none)}</span>` : e(value);
  const rows = sources.map(
    (s) =>
      `<tr><th scope="row">${e(s.channel)}</th><td>${shown(s.utm_source)}</td><td>${shown(s.utm_campaign)}</td>${stageCells(ctx, s.counts)}</tr>`,
  );
  return scrollBox(
    ctx.lang,
    t.sources.heading,
    `<table><thead><tr><th scope="col">${e(t.sources.channel)}</th><th scope="col">${e(t.sources.utmSource)}</th><th scope="col">${e(t.sources.utmCampaign)}</th>${stageHeaders(ctx, { param: 'sources_sort', stage: sort })}</tr></thead><tbody>${rows.join('')}</tbody></table>`,
  );
}

/** Every day of the period with its counts: the day chart's table. */
export function daysTable(ctx: TableContext, report: StatsReport): string {
  const t = DASHBOARD_TEXTS[ctx.lang];
  const rows = report.days.map(
    ({ day, counts }) =>
      `<tr><th scope="row"><time datetime="${e(day)}">${e(day)}</time></th>${stageCells(ctx, counts)}</tr>`,
  );
  return scrollBox(
    ctx.lang,
    t.days.heading,
    `<table><thead><tr><th scope="col">${e(t.days.day)}</th>${stageHeaders(ctx)}</tr></thead><tbody>${rows.join('')}</tbody></table>`,
  );
}

/** The companies' outcomes of the period, most first, each as a share of the applications delivered. */
export function outcomesTable(ctx: TableContext, totals: FunnelCounts): string {
  const t = DASHBOARD_TEXTS[ctx.lang];
  const outcomes = Object.entries(totals.outcomes).sort(([a, m], [b, n]) => n - m || a.localeCompare(b));
  if (outcomes.length === 0) return `<p>${e(t.outcomes.none)}</p>`;
  const rows = outcomes.map(
    ([status, n]) =>
      `<tr><th scope="row">${e(status)}</th><td class="n">${formatNumber(ctx.lang, n)}</td><td class="n">${formatRate(ctx.lang, n, totals.delivered)}</td></tr>`,
  );
  return `<table><caption>${e(t.outcomes.heading)}</caption><thead><tr><th scope="col">${e(t.outcomes.status)}</th><th scope="col" class="n">${e(t.outcomes.count)}</th><th scope="col" class="n">${e(fill(t.funnel.ofStage, { stage: t.stages.delivered.toLocaleLowerCase(ctx.lang) }))}</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The offers' problems (the offer checks), one row per offer with any: each rule in the page's language, the checks' own words (English) and where the rule comes from. */
export function checksTable(ctx: TableContext, checks: OfferChecksView): string {
  const t = DASHBOARD_TEXTS[ctx.lang];
  if (checks.total === 0) return `<p>${e(t.checks.none)}</p>`;
  const rows = checks.offers.map(({ id, title, problems }) => {
    const items = problems.map(
      (p) =>
        `<li><strong>${e(t.checks.rules[p.rule])}</strong>: ${e(p.message)}${p.detail === undefined ? '' : ` (${e(p.detail)})`} <span class="source">${e(t.checks.source)}: ${e(p.source)}</span></li>`,
    );
    return `<tr><th scope="row">${e(title ?? fill(t.offers.unknown, { id }))} <span class="id">#${id}</span></th><td><ul>${items.join('')}</ul></td></tr>`;
  });
  const shown = fill(t.checks.shown, {
    shown: formatNumber(ctx.lang, checks.offers.length),
    total: formatNumber(ctx.lang, checks.total),
  });
  return `<p id="checks-shown">${e(shown)}</p>${scrollBox(
    ctx.lang,
    t.checks.heading,
    `<table aria-describedby="checks-shown"><thead><tr><th scope="col">${e(t.checks.offer)}</th><th scope="col">${e(t.checks.problems)}</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
  )}`;
}
