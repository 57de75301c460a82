// The application menu: the usual Edit and View entries (their shortcuts need the roles on macOS) and Help with
// the log folder and the About dialog, which is what a support request asks for.
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  openLogFolder(): void;
  showAbout(): void;
}

export function appMenuTemplate(platform: NodeJS.Platform, actions: MenuActions, { devTools }: { devTools: boolean }): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const about: MenuItemConstructorOptions = { label: 'About Trainbench', click: () => actions.showAbout() };
  return [
    ...(mac ? [{ label: 'Trainbench', submenu: [about, { type: 'separator' }, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, { type: 'separator' }, { role: 'quit' }] } satisfies MenuItemConstructorOptions] : []),
    { label: 'File', submenu: [mac ? { role: 'close' } : { role: 'quit' }] },
    { label: 'Edit', submenu: [{ role: 'undo' }, { role: 'redo' }, { type: 'separator' }, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }] },
    {
      label: 'View',
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
    { role: 'help', submenu: [{ label: 'Open log folder', click: () => actions.openLogFolder() }, ...(mac ? [] : [{ type: 'separator' } satisfies MenuItemConstructorOptions, about])] },
  ];
}
