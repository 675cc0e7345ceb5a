// The dashboard's one script of its own: it draws the charts with Chart.js
// from the data the page carries in its JSON block (never executed, read
// here). The function below is sent to the browser as its source text
// (DASHBOARD_SCRIPT), so that it is type-checked and linted with the rest:
// it must use nothing but its parameters and what it declares inside.

/** The ids the page gives the data block and the canvases. */
export const CHART_IDS = { data: 'dashboard-data', funnel: 'funnel-chart', days: 'days-chart' } as const;

/** What the page's JSON block holds for the charts, in the page's language. */
export interface DashboardChartData {
  /** The stages of the funnel chart, their counts, and what a bar counts. */
  funnel: { label: string; labels: string[]; values: number[] };
  /** The period's days, one series per stage drawn (a hidden one shows when its legend is clicked). */
  days: { labels: string[]; series: { label: string; values: number[]; hidden: boolean }[] };
}

/** What the drawing reads of the page: a Document has it. */
interface ChartPage {
  getElementById(id: string): { textContent: string | null } | null;
}

/** Chart.js's constructor (window.Chart of its UMD build). */
type ChartConstructor = new (canvas: object, config: object) => object;

export function drawDashboardCharts(page: ChartPage, Chart: ChartConstructor, ids: typeof CHART_IDS): void {
  const block = page.getElementById(ids.data);
  if (block === null || block.textContent === null) return;
  const data = JSON.parse(block.textContent) as DashboardChartData;
  // Dark enough on white for the 3:1 graphics need (WCAG 1.4.11), told apart by hue and by dash.
  const colours = ['#0b57d0', '#146c2e', '#8a4b00', '#7b1fa2', '#b3261e', '#00639b'];
  const dashes = [[], [6, 3], [2, 2], [8, 3, 2, 3], [4, 4], [1, 3]];
  // No animation: the counts are the point, and no one needing reduced motion gets any.
  const common = { animation: false, responsive: true, maintainAspectRatio: false };
  /** Draws on the canvas `id` of the page, when the page has it. */
  const draw = (id: string, config: object) => {
    const canvas = page.getElementById(id);
    if (canvas !== null) new Chart(canvas, config);
  };
  draw(ids.funnel, {
    type: 'bar',
    data: {
      labels: data.funnel.labels,
      datasets: [{ label: data.funnel.label, data: data.funnel.values, backgroundColor: colours[0] }],
    },
    options: { ...common, indexAxis: 'y', plugins: { legend: { display: false } } },
  });
  draw(ids.days, {
    type: 'line',
    data: {
      labels: data.days.labels,
      datasets: data.days.series.map((series, i) => ({
        label: series.label,
        data: series.values,
        hidden: series.hidden,
        borderColor: colours[i % colours.length],
        backgroundColor: colours[i % colours.length],
        borderDash: dashes[i % dashes.length],
        pointRadius: data.days.labels.length > 62 ? 0 : 2,
        tension: 0,
      })),
    },
    options: { ...common, interaction: { mode: 'index', intersect: false }, scales: { y: { beginAtZero: true } } },
  });
}

/** The script served at /dashboard/dashboard-<hash>.js: the function above, called once the page is parsed (the tag is deferred). */
export const DASHBOARD_SCRIPT = `"use strict";(${drawDashboardCharts.toString()})(document, window.Chart, ${JSON.stringify(CHART_IDS)});\n`;
