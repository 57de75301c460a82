import type { ThemeConfig } from 'antd';

const CJK = ['"PingFang SC"', '"Hiragino Sans GB"', '"Microsoft YaHei"', '"Noto Sans CJK SC"', '"Noto Sans SC"', '"Source Han Sans SC"', '"WenQuanYi Micro Hei"'];
const LATIN = ['-apple-system', 'BlinkMacSystemFont', '"Segoe UI"', 'Roboto', '"Helvetica Neue"', 'Arial', '"Noto Sans"', '"Liberation Sans"'];

/**
 * A CJK font on every desktop: PingFang on macOS, Microsoft YaHei on Windows, Noto Sans CJK / Source Han Sans /
 * WenQuanYi on Linux. In Chinese the CJK font comes first, so that Chinese punctuation (“”，。) keeps its
 * full width; in English the Latin fonts come first and Chinese names fall back to the CJK ones. The same two
 * stacks are in styles.css for what antd does not draw.
 */
export const fontFamilyFor = (language: string) => [...(language === 'en' ? [...LATIN, ...CJK] : [...CJK, ...LATIN]), 'sans-serif'].join(', ');

/** The system's "reduce motion" setting (Windows, macOS, GNOME accessibility options). */
const prefersReducedMotion = (): boolean => typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

export const themeFor = (language: string): ThemeConfig => ({
  // antd's styles come from its prebuilt stylesheet (main.tsx) rather than being generated in the page at
  // start: a third less main-thread work before the first screen (bench/first-screen.ts). The tokens below
  // still apply, as the CSS variables that stylesheet reads.
  zeroRuntime: true,
  // Colours that keep WCAG AA contrast (4.5:1) as text on white and on their own light backgrounds (status
  // tags): antd's defaults (#1677ff, #52c41a, #faad14, #ff4d4f, 45 % black for secondary text) do not.
  token: {
    // People who asked their system for less motion get dialogs, menus and popovers without zoom and slide
    // animations (so do the browser tests, which emulate that setting: nothing moves under a click).
    motion: !prefersReducedMotion(),
    fontFamily: fontFamilyFor(language),
    borderRadius: 6,
    colorPrimary: '#1765c6',
    colorLink: '#1765c6',
    colorInfo: '#1765c6',
    colorSuccess: '#237804',
    colorWarning: '#ad4e00',
    colorError: '#cf1322',
    // Derived from those darker colours, antd's light backgrounds come out greyish; keep its usual ones.
    colorSuccessBg: '#f6ffed',
    colorWarningBg: '#fff7e6',
    colorErrorBg: '#fff2f0',
    colorInfoBg: '#e6f4ff',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    // Placeholders are read as hints (what to type): 4.7:1 on white rather than antd's 25 % black.
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
  },
  components: {
    Layout: { headerBg: '#ffffff', siderBg: '#ffffff', bodyBg: '#f5f7fa', headerPadding: '0 16px', headerHeight: 56 },
    // A denser sidebar: with every admin screen it still has to fit a 768 px high laptop screen.
    Menu: { itemHeight: 34, itemMarginBlock: 2, subMenuItemBg: '#ffffff', groupTitleColor: 'rgba(0, 0, 0, 0.62)' },
  },
});
