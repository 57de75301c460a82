import antd from 'antd/es/locale/zh_CN';
import 'dayjs/locale/zh-cn';
import dayjs from 'dayjs';
import { byArea } from '../../resources';
import type { LanguagePack } from '../../index';

const pack: LanguagePack = { resources: byArea(import.meta.glob('./*.json', { eager: true, import: 'default' })), antd, applyDayjs: () => dayjs.locale('zh-cn') };
export default pack;
