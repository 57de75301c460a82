import antd from 'antd/es/locale/en_US';
import dayjs from 'dayjs';
import { byArea } from '../../resources';
import type { LanguagePack } from '../../index';

const pack: LanguagePack = { resources: byArea(import.meta.glob('./*.json', { eager: true, import: 'default' })), antd, applyDayjs: () => dayjs.locale('en') };
export default pack;
