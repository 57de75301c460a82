// The application menu: the usual Edit and View entries (their shortcuts need the roles on macOS) and Help with
// the log folder and the About dialog, which is what a support request asks for.
import type { MenuItemConstructorOptions } from 'electron';
import type { MainT } from './i18n.js';

export interface MenuActions {
  openLogFolder(): void;
  showAbout(): void;
}

export function appMenuTemplate(t: MainT, platform: NodeJS.Platform, actions: MenuActions, { devTools }: { devTools: boolean }): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const about: MenuItemConstructorOptions = { label: t('menu.about'), click: () => actions.showAbout() };
  return [
    ...(mac ? [{ label: 'Trainbench', submenu: [about, { type: 'separator' }, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, { type: 'separator' }, { role: 'quit' }] } satisfies MenuItemConstructorOptions] : []),
    { label: t('menu.file'), submenu: [mac ? { role: 'close' } : { role: 'quit' }] },
    { label: t('menu.edit'), submenu: [{ role: 'undo' }, { role: 'redo' }, { type: 'separator' }, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }] },
    {
      label: t('menu.view'),
      submenu: [
        { role: 'reload' },
        ...(devTools ? [{ role: 'toggleDevTools' } satisfies MenuItemConstructorOptions] : []),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'help', label: t('menu.help'), submenu: [{ label: t('menu.openLogs'), click: () => actions.openLogFolder() }, ...(mac ? [] : [{ type: 'separator' } satisfies MenuItemConstructorOptions, about])] },
  ];
}
