/**
 * Six slice colours, cycled over the options. Each keeps white text at 4.5:1 or better (WCAG
 * AA for normal text), and neighbours differ in hue and lightness.
 */
export const CHART_PALETTE = ['#15803d', '#1d4ed8', '#b45309', '#7e22ce', '#be123c', '#0f766e'] as const;

export const colorFor = (index: number): string => CHART_PALETTE[index % CHART_PALETTE.length] ?? '#15803d';
