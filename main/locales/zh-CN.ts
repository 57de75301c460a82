// The main process's own texts (menus, dialogs, the window title); Chinese is the reference language.
export const zhCN = {
  menu: {
    about: '关于 Trainbench',
    file: '文件',
    edit: '编辑',
    view: '视图',
    help: '帮助',
    openLogs: '打开日志文件夹',
  },
  admin: {
    title: '已创建管理员账号',
    message: 'Trainbench 已创建管理员账号',
    detail: '用户名：{{username}}\n密码：{{password}}\n\n请现在记下密码：它不会再次显示。登录后可以修改密码。',
    ok: '我已记下',
  },
  update: {
    title: '更新已就绪',
    message: 'Trainbench {{version}} 已可以安装',
    detail: '立即重启以安装；也可以稍后，下次退出 Trainbench 时会自动安装。两种方式都不会丢失本机已保存的数据。',
    restart: '立即重启',
    later: '稍后',
  },
  about: {
    title: '关于 Trainbench',
    ok: '确定',
    copy: '复制',
    server: '服务：{{server}}',
    serverRunning: '{{app}}，API {{api}}',
    serverStopped: '未运行',
    database: '数据库：{{database}}',
    databaseUnknown: '未知（本地服务未运行）',
    decoder: '音频解码：{{source}} ffmpeg {{version}}（{{path}}）',
    decoderSource: { system: '系统自带的', bundled: '应用内置的' },
    schema: '{{engine}} {{version}}，结构版本 {{schema}}',
    data: '数据：{{path}}',
    logs: '日志：{{path}}',
  },
  server: {
    restarting: '本地服务意外停止，正在重新启动…',
    stopped: '本地服务未运行',
    gaveUpTitle: 'Trainbench 停止工作',
    gaveUpMessage: '本地服务多次停止',
    gaveUpDetail: '{{reason}}\n\n已保存的数据都还在。可以重试，或打开日志文件夹，把其中的文件发给技术支持。',
    retry: '重试',
    openLogs: '打开日志文件夹',
    quit: '退出',
  },
  leave: {
    title: '离开考试？',
    message: '考试仍在进行中，作答尚未提交。',
    detail: '已作答的内容会保存，再次打开本考试即可继续作答。计时不会停止；超过截止时间后，按截止前已保存的答案评分。',
    stay: '继续作答',
    leave: '离开',
  },
  startup: {
    title: 'Trainbench 无法启动',
    portInUse: 'Trainbench 要使用的端口已被占用（{{message}}）。请关闭占用它的程序，或取消 PORT 设置，让 Trainbench 自己选择空闲端口。',
    cannotWrite: 'Trainbench 无法写入数据文件夹 {{dataDir}}。请确认该文件夹存在并且你有写入权限。\n\n{{message}}',
    notAFolder: '数据文件夹 {{dataDir}}（或它上层的某个文件夹）是一个文件而不是文件夹。请移走该文件，或把 DATA_DIR 设为其他文件夹。',
    busy: '{{dataDir}} 中的数据库正被其他程序使用。请关闭其他正在运行的 Trainbench 后重试。',
    corrupt: '{{dataDir}} 中的数据库已损坏或不是 Trainbench 数据库。请从备份恢复，或把它移走后重新开始。',
    databaseUnreachable: '无法连接 DATABASE_URL 指定的数据库，或数据库拒绝了登录。\n\n{{message}}',
  },
};

type Texts<T> = { [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };
export type MainTexts = Texts<typeof zhCN>;
