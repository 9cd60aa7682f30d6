/**
 * Six slice colours, cycled over the options. Each keeps white text at 4.5:1 or better (WCAG
 * AA for normal text), and neighbours differ in hue and lightness. These are the light theme's;
 * the page draws with `chartColorClass`, which follows the theme (--chart-N in base.css, lighter in
 * dark, under dark text). The shared image (chart-image.ts) is always light.
 */
export const CHART_PALETTE = ['#15803d', '#1d4ed8', '#b45309', '#7e22ce', '#be123c', '#0f766e'] as const;

export const colorFor = (index: number): string => CHART_PALETTE[index % CHART_PALETTE.length] ?? '#15803d';

/**
 * The class that gives an element the option's colour on the page, in the visitor's theme
 * (chart.css). A class, not a style attribute: each style attribute the server draws must be
 * named by its hash in the page's CSP.
 */
export const chartColorClass = (index: number): string => `chart-color-${index % CHART_PALETTE.length}`;
