<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>LocalApiServer</name>
    <message>
        <source>Port %1 is already in use by another program: choose another port and turn the server on again.</source>
        <translation>端口 %1 已被其他程序占用：请换一个端口，再打开服务器。</translation>
    </message>
    <message>
        <source>Port %1 needs administrator rights: choose a port above 1024.</source>
        <translation>端口 %1 需要管理员权限：请选择 1024 以上的端口。</translation>
    </message>
    <message>
        <source>The server cannot listen on %1:%2: %3</source>
        <translation>服务器无法在 %1:%2 上监听：%3</translation>
    </message>
</context>
<context>
    <name>couplet::ApiServerDialog</name>
    <message>
        <source>Local API server</source>
        <translation>本地 API 服务器</translation>
    </message>
    <message>
        <source>Serve the OpenAI-compatible API from this app</source>
        <translation>由本应用提供与 OpenAI 兼容的 API</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>端口：</translation>
    </message>
    <message>
        <source>Listen on:</source>
        <translation>监听：</translation>
    </message>
    <message>
        <source>This computer only (127.0.0.1)</source>
        <translation>仅本机（127.0.0.1）</translation>
    </message>
    <message>
        <source>All network interfaces (other computers can connect)</source>
        <translation>所有网络接口（其他电脑可以连接）</translation>
    </message>
    <message>
        <source>API key:</source>
        <translation>API 密钥：</translation>
    </message>
    <message>
        <source>none: any client may call</source>
        <translation>无：任何客户端都可调用</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>生成密钥</translation>
    </message>
    <message>
        <source>URL:</source>
        <translation>地址：</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Web pages and scripts call POST /v1/completions or /v1/chat/completions, as with OpenAI&apos;s API; their requests appear in the queue with priority &quot;api&quot; and batch with the app&apos;s own work. A key is sent as the header Authorization: Bearer KEY.</source>
        <translation>网页和脚本像调用 OpenAI 的 API 一样调用 POST /v1/completions 或 /v1/chat/completions；这些请求以优先级“api”出现在队列中，与本应用自己的任务一起批处理。密钥通过请求头 Authorization: Bearer KEY 发送。</translation>
    </message>
    <message>
        <source>Running on %1:%2. Stop the server to change its port, address or key.</source>
        <translation>运行于 %1:%2。停止服务器后才能更改端口、地址或密钥。</translation>
    </message>
    <message>
        <source>Other computers can call it without a key.</source>
        <translation>其他电脑无需密钥即可调用。</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
</context>
<context>
    <name>couplet::BulkJobBar</name>
    <message>
        <source>starting</source>
        <translation>正在开始</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>cancelled (resumable)</source>
        <translation>已取消（可继续）</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>%1 rows/s · ETA %2 · %3 ok, %4 invalid, %5 failed · %6 in flight</source>
        <translation>%1 行/秒 · 预计剩余 %2 · 成功 %3，无效 %4，失败 %5 · 进行中 %6</translation>
    </message>
    <message>
        <source>CSV %1: %2</source>
        <translation>CSV %1：%2</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Cancel job</source>
        <translation>取消任务</translation>
    </message>
    <message>
        <source>Workers at %1: %2 live · %3 rows queued, %4 at workers · %5 dead-letter rows · %6 duplicates</source>
        <translation>%1 的工作进程：在线 %2 · 排队 %3 行，工作进程处理中 %4 行 · 死信 %5 行 · 重复 %6</translation>
    </message>
    <message>
        <source>%1%2: %3 rows, %4 rows/s</source>
        <translation>%1%2：%3 行，%4 行/秒</translation>
    </message>
    <message>
        <source> (gone)</source>
        <translation>（已离线）</translation>
    </message>
    <message>
        <source>Posters: %1 of %2 · %3 posters/s</source>
        <translation>海报：%1 / %2 · 每秒 %3 张</translation>
    </message>
    <message>
        <source> · %1 being drawn</source>
        <translation> · %1 张正在绘制</translation>
    </message>
    <message>
        <source> · %1 without a font</source>
        <translation> · %1 行无字体可写</translation>
    </message>
    <message>
        <source> · %1 failed</source>
        <translation> · %1 张失败</translation>
    </message>
    <message>
        <source>Poster, %1</source>
        <translation>海报，%1</translation>
    </message>
</context>
<context>
    <name>couplet::ChartsPanel</name>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>utilisation %</source>
        <translation>利用率 %</translation>
    </message>
    <message>
        <source>memory MiB</source>
        <translation>显存 MiB</translation>
    </message>
    <message>
        <source>CPU (no GPU)</source>
        <translation>CPU（无 GPU）</translation>
    </message>
    <message>
        <source>CPU %</source>
        <translation>CPU %</translation>
    </message>
    <message>
        <source>process RAM MiB</source>
        <translation>进程内存 MiB</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>词元/秒</translation>
    </message>
    <message>
        <source>couplets/s</source>
        <translation>副/秒</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>批处理</translation>
    </message>
    <message>
        <source>occupancy %</source>
        <translation>占用率 %</translation>
    </message>
    <message>
        <source>queue depth</source>
        <translation>队列长度</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>p95 ms</source>
        <translation>p95 毫秒</translation>
    </message>
</context>
<context>
    <name>couplet::ClusterBulkProducer</name>
    <message>
        <source>Another job is running on the workers; cancel it first.</source>
        <translation>工作进程上已有另一个任务在运行；请先取消它。</translation>
    </message>
    <message>
        <source>Redis at %1 cannot be reached (%2). The job is paused; the rows queued there and every finished row are kept. Press Resume when Redis is back.</source>
        <translation>无法连接 %1 的 Redis（%2）。任务已暂停；已排队的行和所有已完成的行都会保留。Redis 恢复后请按“继续”。</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>无应答</translation>
    </message>
</context>
<context>
    <name>couplet::CoupletExporter</name>
    <message>
        <source>Cannot write %1: check that the folder exists and is writable.</source>
        <translation>无法写入 %1：请检查文件夹是否存在且可写。</translation>
    </message>
</context>
<context>
    <name>couplet::CsvImportDialog</name>
    <message>
        <source>— (copied to the output)</source>
        <translation>—（原样复制到输出）</translation>
    </message>
    <message>
        <source>id</source>
        <translation>编号</translation>
    </message>
    <message>
        <source>关键词 keywords</source>
        <translation>关键词</translation>
    </message>
    <message>
        <source>上联 upper line</source>
        <translation>上联</translation>
    </message>
    <message>
        <source>藏头 acrostic</source>
        <translation>藏头</translation>
    </message>
    <message>
        <source>字数 length</source>
        <translation>字数</translation>
    </message>
    <message>
        <source>横批 hengpi</source>
        <translation>横批</translation>
    </message>
    <message>
        <source>年份 year</source>
        <translation>年份</translation>
    </message>
    <message>
        <source>风格 style</source>
        <translation>风格</translation>
    </message>
    <message>
        <source>Import prompts from CSV</source>
        <translation>从 CSV 导入提示</translation>
    </message>
    <message>
        <source>CSV, UTF-8 with BOM (for Excel)</source>
        <translation>CSV，UTF-8 带 BOM（适用于 Excel）</translation>
    </message>
    <message>
        <source>CSV, UTF-8</source>
        <translation>CSV，UTF-8</translation>
    </message>
    <message>
        <source>JSON Lines</source>
        <translation>JSON Lines</translation>
    </message>
    <message>
        <source>Chinese column names (上联 下联 横批)</source>
        <translation>中文列名（上联 下联 横批）</translation>
    </message>
    <message>
        <source>English column names</source>
        <translation>英文列名</translation>
    </message>
    <message>
        <source>Resume the interrupted job for this file and output</source>
        <translation>继续此文件与输出的未完成任务</translation>
    </message>
    <message>
        <source>%1 candidates (fast)</source>
        <translation>%1 个候选（快）</translation>
    </message>
    <message>
        <source>%1 candidates, as the editor (about 4x slower)</source>
        <translation>%1 个候选，与编辑器相同（约慢 4 倍）</translation>
    </message>
    <message>
        <source>A row&apos;s couplet is the best of this many sampled. With %1 it is the couplet the editor writes for the same prompt and seed.</source>
        <translation>每行的春联从这么多个采样中选出最好的一副。选 %1 时，与编辑器对同一提示和种子写出的春联相同。</translation>
    </message>
    <message>
        <source>Choose each couplet from:</source>
        <translation>每副春联选自：</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>列</translation>
    </message>
    <message>
        <source>Meaning</source>
        <translation>含义</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Input:</source>
        <translation>输入：</translation>
    </message>
    <message>
        <source>Encoding:</source>
        <translation>编码：</translation>
    </message>
    <message>
        <source>Output:</source>
        <translation>输出：</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>Header:</source>
        <translation>表头：</translation>
    </message>
    <message>
        <source>Columns (mapped from the header; change any):</source>
        <translation>列（已按表头自动对应，可修改）：</translation>
    </message>
    <message>
        <source>First rows:</source>
        <translation>前几行：</translation>
    </message>
    <message>
        <source>(detected: %1)</source>
        <translation>（检测到：%1）</translation>
    </message>
    <message>
        <source>Line %1, column %2: %3</source>
        <translation>第 %1 行，第 %2 列：%3</translation>
    </message>
    <message>
        <source>Results file</source>
        <translation>结果文件</translation>
    </message>
    <message>
        <source>CSV (*.csv);;JSON Lines (*.jsonl)</source>
        <translation>CSV (*.csv);;JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <source>No column holds the prompt: choose the keywords, 上联 or 藏头 column.</source>
        <translation>没有提示列：请选择关键词、上联或藏头列。</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>Workers at</source>
        <translation>工作进程：</translation>
    </message>
    <message>
        <source>Run on:</source>
        <translation>运行于：</translation>
    </message>
    <message>
        <source>Workers&apos; Redis: %1</source>
        <translation>工作进程的 Redis：%1</translation>
    </message>
    <message>
        <source>嵌名 name to embed (two characters)</source>
        <translation>嵌名（两个字的名字）</translation>
    </message>
    <message>
        <source>嵌名位置 name position (1-6, last, 燕颔 …)</source>
        <translation>嵌名位置（1-6、末字或燕颔等）</translation>
    </message>
    <message>
        <source>繁简 script (simplified, traditional, taiwan, hongkong)</source>
        <translation>繁简（简体、繁体、台湾、香港）</translation>
    </message>
    <message>
        <source>No couplet twice in this job</source>
        <translation>本任务中春联不重复</translation>
    </message>
    <message>
        <source>A row whose best couplet shares a line with one already written takes its best candidate that does not, for files with many rows of the same request (one couplet per customer). More candidates give more to choose from. On this computer only.</source>
        <translation>若某行的最佳春联与已写出的春联有一联相同，就改用它没有相同联句的最佳候选；适合同一请求有许多行的文件（每位客户一副）。候选越多，可选越多。仅限本机运行。</translation>
    </message>
</context>
<context>
    <name>couplet::EditorView</name>
    <message>
        <source>上联</source>
        <translation>上联</translation>
    </message>
    <message>
        <source>下联</source>
        <translation>下联</translation>
    </message>
    <message>
        <source>横批</source>
        <translation>横批</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>评分</translation>
    </message>
    <message>
        <source>上联 (right)</source>
        <translation>上联（右）</translation>
    </message>
    <message>
        <source>下联 (left)</source>
        <translation>下联（左）</translation>
    </message>
    <message>
        <source>横批 (top)</source>
        <translation>横批（上）</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>锁定</translation>
    </message>
    <message>
        <source>New 下联 (keep 上联)</source>
        <translation>换下联（保留上联）</translation>
    </message>
    <message>
        <source>New 横批 only</source>
        <translation>只换横批</translation>
    </message>
    <message>
        <source>Regenerate unlocked</source>
        <translation>重写未锁定部分</translation>
    </message>
    <message>
        <source>Keeps the 上联 and 横批 and asks the model for new 下联</source>
        <translation>保留上联和横批，让模型重新对下联</translation>
    </message>
    <message>
        <source>Keeps both lines and asks the model for a new 横批</source>
        <translation>保留上下联，让模型重拟横批</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Score %1 = model %2 (mean log-probability)
%3 对仗 (aligned pairs)
%4 平仄 (tone pattern)
%5 keywords
%6 repeated characters
%7 clichés (shared with the other candidates)
%8 words (loose characters, torn keywords)
%9 对仗 word by word
%10 theme
%11 melancholy</source>
        <translation>评分 %1 = 模型 %2（平均对数概率）
%3 对仗（字字相对）
%4 平仄
%5 关键词
%6 重字
%7 套话（与其他候选相同）
%8 词语（不成词的字、被拆开的关键词）
%9 对仗（词词相对）
%10 题意
%11 萧瑟之词</translation>
    </message>
    <message>
        <source>Mean log-probability per character</source>
        <translation>每字的平均对数概率</translation>
    </message>
    <message>
        <source>Nothing written: %1</source>
        <translation>未能生成：%1</translation>
    </message>
</context>
<context>
    <name>couplet::EngineWorker</name>
    <message>
        <source>No model is loaded.</source>
        <translation>尚未加载模型。</translation>
    </message>
    <message>
        <source>The engine stopped the running requests: %1</source>
        <translation>引擎已停止正在运行的请求：%1</translation>
    </message>
    <message>
        <source>The queue is busy: run auto-tune when it is empty.</source>
        <translation>队列正忙：请在队列清空后再自动调优。</translation>
    </message>
    <message>
        <source>Another bulk job is running; cancel it first.</source>
        <translation>另一个批量任务正在运行，请先取消。</translation>
    </message>
    <message>
        <source>The model was reloaded during auto-tune.</source>
        <translation>自动调优期间模型被重新加载。</translation>
    </message>
    <message>
        <source>Auto-tune was cancelled.</source>
        <translation>自动调优已取消。</translation>
    </message>
    <message>
        <source>Auto-tune is measuring the engine; start the job when it has finished.</source>
        <translation>自动调优正在测量引擎；请在它完成后再开始任务。</translation>
    </message>
    <message>
        <source>Auto-tune is measuring the engine; resume the job when it has finished.</source>
        <translation>自动调优正在测量引擎；请在它完成后再继续任务。</translation>
    </message>
    <message>
        <source>Auto-tune is measuring the engine; generate again when it has finished.</source>
        <translation>自动调优正在测量引擎；请在它完成后再生成。</translation>
    </message>
</context>
<context>
    <name>couplet::HistoryModel</name>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>上联</source>
        <translation>上联</translation>
    </message>
    <message>
        <source>下联</source>
        <translation>下联</translation>
    </message>
    <message>
        <source>横批</source>
        <translation>横批</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>评分</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>★</source>
        <translation>★</translation>
    </message>
</context>
<context>
    <name>couplet::HistoryPanel</name>
    <message>
        <source>Search 上联, 下联, 横批 or prompt</source>
        <translation>搜索上联、下联、横批或提示</translation>
    </message>
    <message>
        <source>Starred only</source>
        <translation>只看星标</translation>
    </message>
    <message>
        <source>Star / unstar</source>
        <translation>加星 / 取消</translation>
    </message>
    <message>
        <source>Open in editor</source>
        <translation>在编辑器中打开</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
</context>
<context>
    <name>couplet::HistoryStore</name>
    <message>
        <source>Cannot open the history %1: %2</source>
        <translation>无法打开历史记录 %1：%2</translation>
    </message>
    <message>
        <source>Cannot create the history table in %1: %2</source>
        <translation>无法在 %1 中创建历史记录表：%2</translation>
    </message>
    <message>
        <source>Cannot save to the history %1: %2</source>
        <translation>无法保存到历史记录 %1：%2</translation>
    </message>
    <message>
        <source>The history %1 could not be read (%2), nor moved aside; nothing is saved this session.</source>
        <translation>无法读取历史记录 %1（%2），也无法将其移开；本次会话不会保存任何内容。</translation>
    </message>
    <message>
        <source>The history %1 could not be read (%2). It was moved to %3 and a new history begun.</source>
        <translation>无法读取历史记录 %1（%2）。已将其移至 %3，并开始新的历史记录。</translation>
    </message>
    <message>
        <source>the integrity check returned nothing</source>
        <translation>完整性检查没有返回结果</translation>
    </message>
</context>
<context>
    <name>couplet::MainWindow</name>
    <message>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <source>loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <source>Couplet Studio 春联工坊</source>
        <translation>春联工坊 Couplet Studio</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Export couplet (PNG, SVG, PDF)…</source>
        <translation>导出春联（PNG、SVG、PDF）(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Open model folder…</source>
        <translation>打开模型文件夹(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Generate</source>
        <translation>生成(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Cancel all requests</source>
        <translation>取消全部请求(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Gold ink</source>
        <translation>金色字</translation>
    </message>
    <message>
        <source>Black ink</source>
        <translation>黑色字</translation>
    </message>
    <message>
        <source>横批 reads right to left (traditional)</source>
        <translation>横批从右向左读（传统）</translation>
    </message>
    <message>
        <source>Show 福 diamond</source>
        <translation>显示“福”字斗方</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Couplet Studio</source>
        <translation>关于春联工坊(&amp;A)</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>Model not loaded: %1</source>
        <translation>模型未加载：%1</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation>模型：%1</translation>
    </message>
    <message>
        <source>Model not loaded</source>
        <translation>模型未加载</translation>
    </message>
    <message>
        <source>Export couplet</source>
        <translation>导出春联</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图片 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>PNG size</source>
        <translation>PNG 尺寸</translation>
    </message>
    <message>
        <source>Height in pixels:</source>
        <translation>高度（像素）：</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>Model folder</source>
        <translation>模型文件夹</translation>
    </message>
    <message>
        <source>About Couplet Studio</source>
        <translation>关于春联工坊</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Couplet Studio 春联工坊 %1&lt;/h3&gt;&lt;p&gt;Writes Chinese spring couplets with a small Transformer.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;春联工坊 Couplet Studio %1&lt;/h3&gt;&lt;p&gt;用一个小型 Transformer 模型撰写春联。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;Bulk generate from CSV…</source>
        <translation>从 CSV 批量生成(&amp;B)…</translation>
    </message>
    <message>
        <source>Charts and tuning</source>
        <translation>图表与调优</translation>
    </message>
    <message>
        <source>Prompts CSV</source>
        <translation>提示 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv *.txt);;All files (*)</source>
        <translation>CSV 文件 (*.csv *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>设置(&amp;S)</translation>
    </message>
    <message>
        <source>Local &amp;API server…</source>
        <translation>本地 &amp;API 服务器…</translation>
    </message>
</context>
<context>
    <name>couplet::PosterOptionsBox</name>
    <message>
        <source>Posters next to the CSV (one per row, named by its id)</source>
        <translation>在 CSV 旁生成海报（每行一张，以 id 命名）</translation>
    </message>
    <message>
        <source>Share card, 1080 × 1920 PNG</source>
        <translation>分享卡，1080 × 1920 PNG</translation>
    </message>
    <message>
        <source>Print PDF (300 dpi, 3 mm bleed)</source>
        <translation>印刷 PDF（300 dpi，3 毫米出血）</translation>
    </message>
    <message>
        <source>Share card and print PDF</source>
        <translation>分享卡和印刷 PDF</translation>
    </message>
    <message>
        <source>Lines %1 cm</source>
        <translation>联幅 %1 厘米</translation>
    </message>
    <message>
        <source>Automatic (AR PL UKai, else a font with every character)</source>
        <translation>自动（文鼎楷体，否则选用字形齐全的字体）</translation>
    </message>
    <message>
        <source>Gold characters</source>
        <translation>金字</translation>
    </message>
    <message>
        <source>Black characters</source>
        <translation>黑字</translation>
    </message>
    <message>
        <source>横批</source>
        <translation>横批</translation>
    </message>
    <message>
        <source>福 square</source>
        <translation>福字方</translation>
    </message>
    <message>
        <source>Folder:</source>
        <translation>文件夹：</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>Print size:</source>
        <translation>印刷尺寸：</translation>
    </message>
    <message>
        <source>Font:</source>
        <translation>字体：</translation>
    </message>
    <message>
        <source>Ink:</source>
        <translation>字色：</translation>
    </message>
    <message>
        <source>With:</source>
        <translation>包含：</translation>
    </message>
</context>
<context>
    <name>couplet::PromptPanel</name>
    <message>
        <source>Keywords (关键词)</source>
        <translation>关键词</translation>
    </message>
    <message>
        <source>Given 上联 (对下联)</source>
        <translation>给上联（对下联）</translation>
    </message>
    <message>
        <source>5 characters</source>
        <translation>五言</translation>
    </message>
    <message>
        <source>7 characters</source>
        <translation>七言</translation>
    </message>
    <message>
        <source>9 characters</source>
        <translation>九言</translation>
    </message>
    <message>
        <source>11 characters</source>
        <translation>十一言</translation>
    </message>
    <message>
        <source>Free length</source>
        <translation>不限字数</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Line length</source>
        <translation>每联字数</translation>
    </message>
    <message>
        <source>Candidates</source>
        <translation>候选数</translation>
    </message>
    <message>
        <source>Fixed 横批</source>
        <translation>指定横批</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>empty: the model picks one</source>
        <translation>留空则由模型拟定</translation>
    </message>
    <message>
        <source>random</source>
        <translation>随机</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Tone pattern: 上联 ends 仄, 下联 ends 平</source>
        <translation>平仄：上联仄声收尾，下联平声收尾</translation>
    </message>
    <message>
        <source>Generate (Enter)</source>
        <translation>生成（回车）</translation>
    </message>
    <message>
        <source>e.g. 龙年 五福 (space separated)</source>
        <translation>例如：龙年 五福（空格分隔）</translation>
    </message>
    <message>
        <source>e.g. 春回大地千山秀</source>
        <translation>例如：春回大地千山秀</translation>
    </message>
    <message>
        <source>Enter the text for this mode first.</source>
        <translation>请先输入此模式所需的文字。</translation>
    </message>
    <message>
        <source>The 上联 has %1 characters but the line length is %2.</source>
        <translation>上联有 %1 个字，但每联字数设为 %2。</translation>
    </message>
    <message>
        <source>A 横批 has four characters; &quot;%1&quot; has %2.</source>
        <translation>横批应为四个字；“%1”有 %2 个字。</translation>
    </message>
    <message>
        <source>Every keyword must appear (in the 上联)</source>
        <translation>每个关键词都必须出现（在上联中）</translation>
    </message>
    <message>
        <source>Several year animals (辞旧迎新)</source>
        <translation>可含多个生肖（辞旧迎新）</translation>
    </message>
    <message>
        <source>By default a couplet names one year animal: the prompt&apos;s, or the first the 上联 names. Check this for couplets that see one year out and the next in (金蛇辞旧岁 / 骏马迎新春).</source>
        <translation>默认一副春联只出现一个生肖：提示中的，或上联最先出现的。辞旧迎新的春联（金蛇辞旧岁 / 骏马迎新春）请勾选此项。</translation>
    </message>
    <message>
        <source>Any year</source>
        <translation>不限年份</translation>
    </message>
    <message>
        <source>%1 (%2年)</source>
        <translation>%1（%2年）</translation>
    </message>
    <message>
        <source>The Spring Festival the couplet is for. Its animal (羊 for 2027) is the only year animal written, unless the prompt names another; no 金猴 or 龙年 in a goat year.</source>
        <translation>这副春联为哪一年的春节而写。除非提示中另有生肖，只写这一年的生肖（2027 年为羊）；羊年不写金猴、龙年。</translation>
    </message>
    <message>
        <source>Year</source>
        <translation>年份</translation>
    </message>
    <message>
        <source>Name (嵌名, 藏头)</source>
        <translation>嵌名（藏头）</translation>
    </message>
    <message>
        <source>1st character: 鹤顶格 (藏头)</source>
        <translation>第一字：鹤顶格（藏头）</translation>
    </message>
    <message>
        <source>2nd: 燕颔格</source>
        <translation>第二字：燕颔格</translation>
    </message>
    <message>
        <source>3rd: 鸢肩格</source>
        <translation>第三字：鸢肩格</translation>
    </message>
    <message>
        <source>4th: 蜂腰格</source>
        <translation>第四字：蜂腰格</translation>
    </message>
    <message>
        <source>5th: 鹤膝格 (7 or 9 characters)</source>
        <translation>第五字：鹤膝格（七言或九言）</translation>
    </message>
    <message>
        <source>6th: 凫胫格 (7 or 9 characters)</source>
        <translation>第六字：凫胫格（七言或九言）</translation>
    </message>
    <message>
        <source>Last: 雁足格</source>
        <translation>末字：雁足格</translation>
    </message>
    <message>
        <source>Where the name stands: its first character in the 上联, its second in the 下联. A name has two characters; for a full name such as 张德顺 enter the given name 德顺.</source>
        <translation>名字嵌在哪个位置：第一个字在上联，第二个字在下联。名字为两个字；全名如张德顺请输入名字德顺。</translation>
    </message>
    <message>
        <source>Name position</source>
        <translation>嵌名位置</translation>
    </message>
    <message>
        <source>Characters</source>
        <translation>简繁</translation>
    </message>
    <message>
        <source>Simplified 简体</source>
        <translation>简体</translation>
    </message>
    <message>
        <source>Traditional 繁體</source>
        <translation>繁體</translation>
    </message>
    <message>
        <source>Taiwan 臺灣正體</source>
        <translation>臺灣正體</translation>
    </message>
    <message>
        <source>Taiwan, with its modern words (s2twp)</source>
        <translation>臺灣正體，含台湾用语（s2twp）</translation>
    </message>
    <message>
        <source>Hong Kong 香港繁體</source>
        <translation>香港繁體</translation>
    </message>
    <message>
        <source>The model writes Simplified; the chosen couplet is converted by phrase (OpenCC), so that 头发 becomes 頭髮 and 发展 發展.</source>
        <translation>模型以简体撰写；选定的春联按词转换（OpenCC），头发写作頭髮，发展写作發展。</translation>
    </message>
    <message>
        <source>e.g. 德顺 (one character in 上联, one in 下联)</source>
        <translation>如 德顺（上联一字，下联一字）</translation>
    </message>
    <message>
        <source>A name to embed has two characters, one for each line; &quot;%1&quot; has %2. For a full name such as 张德顺 enter the given name, 德顺.</source>
        <translation>嵌名为两个字，上下联各一字；“%1”有 %2 个字。全名如张德顺请输入名字德顺。</translation>
    </message>
</context>
<context>
    <name>couplet::QueueModel</name>
    <message>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>生成中</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>bulk</source>
        <translation>批量</translation>
    </message>
    <message>
        <source>interactive</source>
        <translation>交互</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Priority</source>
        <translation>优先级</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>Latency (ms)</source>
        <translation>延迟（毫秒）</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>词元/秒</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>api</source>
        <translation>API</translation>
    </message>
</context>
<context>
    <name>couplet::QueueView</name>
    <message>
        <source>Cancel selected</source>
        <translation>取消所选</translation>
    </message>
    <message>
        <source>Cancel all</source>
        <translation>全部取消</translation>
    </message>
    <message>
        <source>Clear finished</source>
        <translation>清除已结束</translation>
    </message>
    <message>
        <source>%1 waiting, %2 running, %3 paused, %4 done, %5 failed, %6 cancelled</source>
        <translation>等待 %1，生成中 %2，已暂停 %3，完成 %4，失败 %5，已取消 %6</translation>
    </message>
</context>
<context>
    <name>couplet::StudioApp</name>
    <message>
        <source>loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>关键词: %1</source>
        <translation>关键词：%1</translation>
    </message>
    <message>
        <source>上联: %1</source>
        <translation>上联：%1</translation>
    </message>
    <message>
        <source>藏头: %1</source>
        <translation>藏头：%1</translation>
    </message>
    <message>
        <source>Request %1 failed: %2</source>
        <translation>请求 %1 失败：%2</translation>
    </message>
    <message>
        <source>%1 tokens/s · %2 couplets/s · %3/%4 slots · %5 waiting</source>
        <translation>%1 词元/秒 · %2 副/秒 · 槽位 %3/%4 · 等待 %5</translation>
    </message>
    <message>
        <source>Model not loaded</source>
        <translation>模型未加载</translation>
    </message>
    <message>
        <source>The model could not be loaded:
%1</source>
        <translation>无法加载模型：
%1</translation>
    </message>
    <message>
        <source>CSV %1</source>
        <translation>CSV %1</translation>
    </message>
    <message>
        <source>CSV %1: %2 of %3 rows, %4 in flight</source>
        <translation>CSV %1：%2 / %3 行，进行中 %4</translation>
    </message>
    <message>
        <source>Bulk job done: %1</source>
        <translation>批量任务完成：%1</translation>
    </message>
    <message>
        <source>Bulk job failed: %1</source>
        <translation>批量任务失败：%1</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <source>CSV %1 on workers</source>
        <translation>CSV %1（工作进程）</translation>
    </message>
    <message>
        <source>%1 on workers</source>
        <translation>%1（工作进程）</translation>
    </message>
    <message>
        <source>Bulk job paused: %1</source>
        <translation>批量任务已暂停：%1</translation>
    </message>
    <message>
        <source>Local API server on %1</source>
        <translation>本地 API 服务器：%1</translation>
    </message>
    <message>
        <source>Local API server stopped</source>
        <translation>本地 API 服务器已停止</translation>
    </message>
    <message>
        <source>API: %1</source>
        <translation>API：%1</translation>
    </message>
    <message>
        <source> (+%1 more)</source>
        <translation>（另有 %1 个）</translation>
    </message>
    <message>
        <source>嵌名 %1: %2</source>
        <translation>嵌名 %1：%2</translation>
    </message>
    <message>
        <source>Posters: the %1: %2</source>
        <translation>海报：%1：%2</translation>
    </message>
    <message>
        <source>font</source>
        <translation>字体</translation>
    </message>
    <message>
        <source>size</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <source>Posters: %1</source>
        <translation>海报：%1</translation>
    </message>
</context>
<context>
    <name>couplet::TuningPanel</name>
    <message>
        <source>Engine settings (applied live)</source>
        <translation>引擎设置（即时生效）</translation>
    </message>
    <message>
        <source>Auto-tune</source>
        <translation>自动调优</translation>
    </message>
    <message>
        <source>Sequences decoded together in one step</source>
        <translation>每一步一起解码的序列数</translation>
    </message>
    <message>
        <source>Batching window when the engine was idle, in milliseconds</source>
        <translation>引擎空闲时的批处理等待窗口（毫秒）</translation>
    </message>
    <message>
        <source>Prompt tokens prefilled per step, at most</source>
        <translation>每一步最多预填充的提示词元数</translation>
    </message>
    <message>
        <source>all cores</source>
        <translation>全部核心</translation>
    </message>
    <message>
        <source>Run auto-tune</source>
        <translation>运行自动调优</translation>
    </message>
    <message>
        <source>Measures throughput and latency for a range of batch sizes on the loaded model</source>
        <translation>在已加载的模型上测量不同批大小的吞吐量和延迟</translation>
    </message>
    <message>
        <source>Accept proposal</source>
        <translation>采用建议</translation>
    </message>
    <message>
        <source>Batch size sweep</source>
        <translation>批大小扫描</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>词元/秒</translation>
    </message>
    <message>
        <source>p95 latency ms</source>
        <translation>p95 延迟（毫秒）</translation>
    </message>
    <message>
        <source>Measuring…</source>
        <translation>测量中…</translation>
    </message>
    <message>
        <source>Measured batch %1: %2 tokens/s</source>
        <translation>已测批大小 %1：%2 词元/秒</translation>
    </message>
    <message>
        <source>Auto-tune failed: %1</source>
        <translation>自动调优失败：%1</translation>
    </message>
    <message>
        <source>Proposed max_batch = %1: %2 tokens/s, p95 latency %3 ms (the smallest batch within 5% of the best throughput).</source>
        <translation>建议 max_batch = %1：%2 词元/秒，p95 延迟 %3 毫秒（吞吐量与最佳值相差 5% 以内的最小批大小）。</translation>
    </message>
</context>
</TS>
