import type { ThemeConfig } from 'antd';

/**
 * Chinese first: a CJK font on every desktop (PingFang on macOS, Microsoft YaHei on Windows, Noto Sans CJK or
 * Source Han Sans on Linux), after the system UI font for Latin text. Also set on <body> (styles.css) for
 * anything outside antd.
 */
export const FONT_FAMILY = [
  '-apple-system',
  'BlinkMacSystemFont',
  '"Segoe UI"',
  '"PingFang SC"',
  '"Hiragino Sans GB"',
  '"Microsoft YaHei"',
  '"Noto Sans CJK SC"',
  '"Noto Sans SC"',
  '"Source Han Sans SC"',
  '"WenQuanYi Micro Hei"',
  '"Helvetica Neue"',
  'Arial',
  'sans-serif',
].join(', ');

export const theme: ThemeConfig = {
  // Colours that keep WCAG AA contrast (4.5:1) as text on white and on their own light backgrounds (status
  // tags): antd's defaults (#1677ff, #52c41a, #faad14, #ff4d4f, 45 % black for secondary text) do not.
  token: {
    fontFamily: FONT_FAMILY,
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
  },
  components: {
    Layout: { headerBg: '#ffffff', siderBg: '#ffffff', bodyBg: '#f5f7fa', headerPadding: '0 16px', headerHeight: 56 },
    // A denser sidebar: with every admin screen it still has to fit a 768 px high laptop screen.
    Menu: { itemHeight: 34, itemMarginBlock: 2, subMenuItemBg: '#ffffff', groupTitleColor: 'rgba(0, 0, 0, 0.62)' },
  },
};
