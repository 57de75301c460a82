// One echarts chart as a React element. Only the chart kinds and components the admin charts use are
// registered (echarts/core), and this module is reached only through a lazy import: charts are never in the
// first load.
import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import type { ComposeOption } from 'echarts/core';
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption, AriaComponentOption } from 'echarts/components';

echarts.use([BarChart, LineChart, GridComponent, TooltipComponent, LegendComponent, AriaComponent, SVGRenderer]);

export type ChartOption = ComposeOption<BarSeriesOption | LineSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption | AriaComponentOption>;

/**
 * A figure for screen readers (named `label`; the data read out in `description` on the image), drawn as SVG so
 * that it stays sharp and its text uses the page's fonts; follows its box's size.
 */
export function Chart({ option, label, description, height = 260 }: { option: ChartOption; label: string; description: string; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  useEffect(() => {
    const element = box.current!;
    const instance = echarts.init(element, undefined, { renderer: 'svg' });
    chart.current = instance;
    const resize = new ResizeObserver(() => instance.resize());
    resize.observe(element);
    return () => {
      resize.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);
  useEffect(() => {
    chart.current?.setOption({ aria: { enabled: true, label: { description } }, animation: false, ...option }, true);
  }, [option, description]);
  // echarts writes the description of the data into the aria-label of the box it draws in: the figure around it
  // carries the chart's title.
  return (
    <figure aria-label={label} className="chart-figure">
      <div ref={box} role="img" className="chart" style={{ height }} />
    </figure>
  );
}
