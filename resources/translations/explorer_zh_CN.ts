<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Classroom</name>
    <message>
        <source>Select head 0 … 8</source>
        <translation>选择第 0 … 8 个头</translation>
    </message>
    <message>
        <source>Edit the sentence</source>
        <translation>编辑句子</translation>
    </message>
    <message>
        <source>Edit the query</source>
        <translation>编辑查询</translation>
    </message>
    <message>
        <source>Clear the selected cell</source>
        <translation>取消选中的单元格</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>Double-click a panel</source>
        <translation>双击一个面板</translation>
    </message>
    <message>
        <source>Zoom into that stage, or back to every stage</source>
        <translation>放大该阶段，或回到全部阶段</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Presentation mode</source>
        <translation>演示模式</translation>
    </message>
    <message>
        <source>Presentation</source>
        <translation>演示</translation>
    </message>
    <message>
        <source>Full screen, large fonts and values in the cells, for a projector (F11)</source>
        <translation>全屏、大字号、单元格内显示数值，适合投影仪（F11）</translation>
    </message>
    <message>
        <source>Lesson steps</source>
        <translation>分步讲解</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>讲解</translation>
    </message>
    <message>
        <source>Walk the stages one at a time with ← and →</source>
        <translation>用 ← 和 → 逐个阶段讲解</translation>
    </message>
    <message>
        <source>Previous stage</source>
        <translation>上一阶段</translation>
    </message>
    <message>
        <source>Next stage</source>
        <translation>下一阶段</translation>
    </message>
    <message>
        <source>Play / pause the lesson</source>
        <translation>播放 / 暂停讲解</translation>
    </message>
    <message>
        <source>Larger text</source>
        <translation>放大文字</translation>
    </message>
    <message>
        <source>Larger text and plots (Ctrl+=)</source>
        <translation>放大文字和图（Ctrl+=）</translation>
    </message>
    <message>
        <source>Smaller text</source>
        <translation>缩小文字</translation>
    </message>
    <message>
        <source>Smaller text and plots (Ctrl+-)</source>
        <translation>缩小文字和图（Ctrl+-）</translation>
    </message>
    <message>
        <source>Normal text size</source>
        <translation>正常文字大小</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Light (high contrast)</source>
        <translation>浅色（高对比度）</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Classroom</source>
        <translation>课堂</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>Show one stage large, or every stage (or double-click a panel)</source>
        <translation>放大显示一个阶段，或显示全部阶段（也可双击面板）</translation>
    </message>
    <message>
        <source>Every stage</source>
        <translation>全部阶段</translation>
    </message>
</context>
<context>
    <name>CompareView</name>
    <message>
        <source>B = A with</source>
        <translation>B = A 但</translation>
    </message>
    <message>
        <source>same scoring</source>
        <translation>相同评分</translation>
    </message>
    <message>
        <source>scoring: {0}</source>
        <translation>评分：{0}</translation>
    </message>
    <message>
        <source>The scoring function of B (dot, cosine, additive, general)</source>
        <translation>B 的评分函数（点积、余弦、加性、一般）</translation>
    </message>
    <message>
        <source>same attention</source>
        <translation>相同注意力</translation>
    </message>
    <message>
        <source>B cannot be computed: {0}</source>
        <translation>无法计算 B：{0}</translation>
    </message>
    <message>
        <source>Computing A and B…</source>
        <translation>正在计算 A 和 B…</translation>
    </message>
    <message>
        <source>attention: {0}</source>
        <translation>注意力：{0}</translation>
    </message>
    <message>
        <source>Soft (softmax), hard (one-hot at the best key) or sampled for B</source>
        <translation>B 用软注意力（softmax）、硬注意力（最佳键为 1）或采样</translation>
    </message>
    <message>
        <source>τ =</source>
        <translation>τ =</translation>
    </message>
    <message>
        <source>Divide B&apos;s scores by the temperature τ instead of A&apos;s scaling</source>
        <translation>用温度 τ 除 B 的分数，替代 A 的缩放</translation>
    </message>
    <message>
        <source>Nothing to export yet: no result has been computed</source>
        <translation>还没有可导出的内容：尚未计算出结果</translation>
    </message>
    <message>
        <source>Compare: A, B and B − A</source>
        <translation>对比：A、B 和 B − A</translation>
    </message>
    <message>
        <source>Compare: {0}</source>
        <translation>对比：{0}</translation>
    </message>
    <message>
        <source>same mask</source>
        <translation>相同掩码</translation>
    </message>
    <message>
        <source>no scaling</source>
        <translation>不缩放</translation>
    </message>
    <message>
        <source>mask {0}</source>
        <translation>掩码 {0}</translation>
    </message>
    <message>
        <source>mask: {0}</source>
        <translation>掩码：{0}</translation>
    </message>
    <message>
        <source>Compare two settings of the same inputs.</source>
        <translation>比较同一输入的两种设置。</translation>
    </message>
    <message>
        <source>A: {0}</source>
        <translation>A：{0}</translation>
    </message>
    <message>
        <source>B: {0}</source>
        <translation>B：{0}</translation>
    </message>
    <message>
        <source>B − A (red: more in B)</source>
        <translation>B − A（红色：B 更大）</translation>
    </message>
    <message>
        <source>Head {5}.  A = {0}.  B = {1}.  Largest change: {2:.4f} at query “{3}”, key “{4}”.</source>
        <translation>第 {5} 个头。A = {0}。B = {1}。最大变化：{2:.4f}，在查询“{3}”、键“{4}”处。</translation>
    </message>
</context>
<context>
    <name>Controls</name>
    <message>
        <source>Example</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>&amp;Query</source>
        <translation>查询(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Sentence</source>
        <translation>句子(&amp;S)</translation>
    </message>
    <message>
        <source>Scoring</source>
        <translation>评分函数</translation>
    </message>
    <message>
        <source>Scaling</source>
        <translation>缩放</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>头数</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重来源</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>宽度</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Mask</source>
        <translation>掩码</translation>
    </message>
    <message>
        <source>Choose an example…</source>
        <translation>选择一个示例…</translation>
    </message>
    <message>
        <source>Load a ready-made example: it sets the texts and the options it is about</source>
        <translation>载入现成的示例：设置文本和相关选项</translation>
    </message>
    <message>
        <source>empty: the sentence attends to itself</source>
        <translation>留空：句子对自身做注意力（自注意力）</translation>
    </message>
    <message>
        <source>The tokens that ask (rows of Q). Leave empty for self-attention; fill it for cross-attention over the sentence.</source>
        <translation>发出询问的词元（Q 的行）。留空为自注意力；填写则对句子做交叉注意力。</translation>
    </message>
    <message>
        <source>The tokens that answer: keys (K) and values (V) come from this text (Ctrl+L)</source>
        <translation>被查询的词元：键（K）和值（V）来自这段文本（Ctrl+L）</translation>
    </message>
    <message>
        <source>score = q·k: large when query and key point the same way and are long</source>
        <translation>分数 = q·k：查询和键方向相同且都很长时分数大</translation>
    </message>
    <message>
        <source>score = q·k / (|q||k|): only the angle counts, from -1 to 1</source>
        <translation>分数 = q·k / (|q||k|)：只看夹角，范围 -1 到 1</translation>
    </message>
    <message>
        <source>Bahdanau: score = vᵀ tanh(W₁q + W₂k) with seeded, untrained W₁, W₂, v</source>
        <translation>Bahdanau：分数 = vᵀ tanh(W₁q + W₂k)，其中 W₁、W₂、v 由种子生成、未经训练</translation>
    </message>
    <message>
        <source>Luong: score = qᵀ W k with a seeded, untrained W</source>
        <translation>Luong：分数 = qᵀ W k，其中 W 由种子生成、未经训练</translation>
    </message>
    <message>
        <source>÷ τ (temperature)</source>
        <translation>÷ τ（温度）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>soft (softmax)</source>
        <translation>软（softmax）</translation>
    </message>
    <message>
        <source>softmax: every visible key gets a share of the weight</source>
        <translation>softmax：每个可见的键都分到一部分权重</translation>
    </message>
    <message>
        <source>hard (one key)</source>
        <translation>硬（只取一个键）</translation>
    </message>
    <message>
        <source>all the weight goes to the best-scoring key of each row</source>
        <translation>每一行的全部权重都给分数最高的键</translation>
    </message>
    <message>
        <source>sample (drawn)</source>
        <translation>采样</translation>
    </message>
    <message>
        <source>one key per row drawn at random from the softmax (seeded)</source>
        <translation>每一行按 softmax 概率随机抽取一个键（固定种子）</translation>
    </message>
    <message>
        <source>every query sees every key</source>
        <translation>每个查询都能看到每个键</translation>
    </message>
    <message>
        <source>causal</source>
        <translation>因果</translation>
    </message>
    <message>
        <source>query i sees keys 0..i only (a decoder)</source>
        <translation>查询 i 只能看到键 0..i（解码器）</translation>
    </message>
    <message>
        <source>window ±K</source>
        <translation>窗口 ±K</translation>
    </message>
    <message>
        <source>query i sees keys within K positions (local attention)</source>
        <translation>查询 i 只能看到相距 K 个位置以内的键（局部注意力）</translation>
    </message>
    <message>
        <source>valid length N</source>
        <translation>有效长度 N</translation>
    </message>
    <message>
        <source>only the first N keys are visible (padding)</source>
        <translation>只有前 N 个键可见（其余是填充）</translation>
    </message>
    <message>
        <source>pretrained (MiniLM)</source>
        <translation>预训练（MiniLM）</translation>
    </message>
    <message>
        <source>the W_Q, W_K, W_V, W_O of a trained model&apos;s layer, with X its hidden state entering that layer</source>
        <translation>训练好的模型某一层的 W_Q、W_K、W_V、W_O，X 是进入该层的隐藏状态</translation>
    </message>
    <message>
        <source>random (seeded)</source>
        <translation>随机（固定种子）</translation>
    </message>
    <message>
        <source>seeded random embeddings and projections of the chosen width</source>
        <translation>按所选宽度生成的带种子随机嵌入和投影</translation>
    </message>
    <message>
        <source>identity</source>
        <translation>恒等</translation>
    </message>
    <message>
        <source>W = I: Q = K = V = X, to see the bare mechanism</source>
        <translation>W = I：Q = K = V = X，看最朴素的机制</translation>
    </message>
    <message>
        <source>Open model folder…</source>
        <translation>打开模型文件夹…</translation>
    </message>
    <message>
        <source>load a local BERT-family model folder (config.json, model.safetensors, tokenizer.json)</source>
        <translation>加载本地的 BERT 系列模型文件夹（config.json、model.safetensors、tokenizer.json）</translation>
    </message>
    <message>
        <source>How a query and a key become one score: </source>
        <translation>查询和键如何变成一个分数：</translation>
    </message>
    <message>
        <source>What divides the scores before the softmax: √d_k keeps dot products of long vectors from saturating it; τ sets the sharpness by hand</source>
        <translation>softmax 之前分数除以什么：√d_k 防止长向量的点积使 softmax 饱和；τ 手动调节尖锐程度</translation>
    </message>
    <message>
        <source>Temperature τ (0.01 to 10, log scale): scores are divided by τ. Small τ: sharp, almost one-hot weights; large τ: flat weights. Moving it switches scaling to τ.</source>
        <translation>温度 τ（0.01 到 10，对数刻度）：分数除以 τ。τ 小：权重尖锐，几乎是独热；τ 大：权重平缓。拖动它会把缩放方式切换为 τ。</translation>
    </message>
    <message>
        <source>How many heads split the model width: each head gets width/heads columns of Q, K and V. Only counts that divide the width are offered.</source>
        <translation>把模型宽度分成几个头：每个头得到 Q、K、V 的 宽度/头数 列。只提供能整除宽度的头数。</translation>
    </message>
    <message>
        <source>Soft: softmax weights. Hard: one-hot at the best key. Sample: one-hot at a key drawn from the softmax with the seed.</source>
        <translation>软：softmax 权重。硬：最佳键为 1 的独热权重。采样：按 softmax 用种子抽取一个键，独热权重。</translation>
    </message>
    <message>
        <source>Seeds the sampled attention, the random weights and the untrained parameters of additive and general scoring: same seed, same numbers</source>
        <translation>为采样注意力、随机权重以及加性和通用评分中未训练的参数设定种子：种子相同，数字就相同</translation>
    </message>
    <message>
        <source>Which keys each query may see: hidden scores become -∞ before the softmax, so their weights are exactly 0 (drawn hatched)</source>
        <translation>每个查询能看到哪些键：被遮住的分数在 softmax 前变为 -∞，权重恰好为 0（画成斜线）</translation>
    </message>
    <message>
        <source>K for the window (keys within K positions), N for the valid length</source>
        <translation>窗口的 K（相距 K 个位置以内的键），有效长度的 N</translation>
    </message>
    <message>
        <source>Where X and the projection matrices come from</source>
        <translation>X 和投影矩阵的来源</translation>
    </message>
    <message>
        <source>The model folder in use</source>
        <translation>正在使用的模型文件夹</translation>
    </message>
    <message>
        <source>bundled all-MiniLM-L6-v2</source>
        <translation>内置 all-MiniLM-L6-v2</translation>
    </message>
    <message>
        <source>Which layer of the pretrained model: X is the hidden state entering it and W_Q, W_K, W_V, W_O are its projections</source>
        <translation>预训练模型的哪一层：X 是进入该层的隐藏状态，W_Q、W_K、W_V、W_O 是它的投影矩阵</translation>
    </message>
    <message>
        <source>d_model of random and identity weights: the width of X, split among the heads</source>
        <translation>随机权重和单位权重的 d_model：X 的宽度，平均分给各个头</translation>
    </message>
    <message>
        <source>auto (best available)</source>
        <translation>自动（选用最好的）</translation>
    </message>
    <message>
        <source>unavailable: {0}</source>
        <translation>不可用：{0}</translation>
    </message>
    <message>
        <source>CUDA, then MPS, then CPU</source>
        <translation>依次尝试 CUDA、MPS、CPU</translation>
    </message>
    <message>
        <source>compute on {0}</source>
        <translation>在 {0} 上计算</translation>
    </message>
    <message>
        <source>Where the attention is computed; the numbers are the same up to rounding.</source>
        <translation>在哪里计算注意力；不同设备的结果只差舍入误差。</translation>
    </message>
    <message>
        <source>Open a BERT-family model folder (config.json, model.safetensors, tokenizer.json)</source>
        <translation>打开 BERT 系列模型文件夹（config.json、model.safetensors、tokenizer.json）</translation>
    </message>
    <message>
        <source>{0} (model&apos;s own)</source>
        <translation>{0}（模型自带）</translation>
    </message>
</context>
<context>
    <name>Docks</name>
    <message>
        <source>Worked arithmetic</source>
        <translation>逐步计算</translation>
    </message>
    <message>
        <source>Show the actual numbers behind the selected cell</source>
        <translation>显示所选单元格背后的实际数字</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>讲解</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>All stages of the current trace (data)</source>
        <translation>当前计算的全部阶段（数据）</translation>
    </message>
    <message>
        <source>The whole window (PNG)</source>
        <translation>整个窗口（PNG）</translation>
    </message>
    <message>
        <source>What</source>
        <translation>内容</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>To</source>
        <translation>保存到</translation>
    </message>
    <message>
        <source>Copy to clipboard</source>
        <translation>复制到剪贴板</translation>
    </message>
    <message>
        <source>CSV (a folder, one file per stage and head)</source>
        <translation>CSV（一个文件夹，每个阶段和头一个文件）</translation>
    </message>
    <message>
        <source>NPY (a folder, one file per stage)</source>
        <translation>NPY（一个文件夹，每个阶段一个文件）</translation>
    </message>
    <message>
        <source>JSON (one file, as the trace command)</source>
        <translation>JSON（一个文件，同 trace 命令）</translation>
    </message>
    <message>
        <source>SVG (vector)</source>
        <translation>SVG（矢量）</translation>
    </message>
    <message>
        <source>Export into folder</source>
        <translation>导出到文件夹</translation>
    </message>
    <message>
        <source>Export to</source>
        <translation>导出到</translation>
    </message>
</context>
<context>
    <name>Exporter</name>
    <message>
        <source>Worked arithmetic</source>
        <translation>逐步计算</translation>
    </message>
    <message>
        <source>cannot write {0}</source>
        <translation>无法写入 {0}</translation>
    </message>
    <message>
        <source>Exported {0}</source>
        <translation>已导出 {0}</translation>
    </message>
    <message>
        <source>{0}: choose PNG or SVG</source>
        <translation>{0}：请选择 PNG 或 SVG</translation>
    </message>
    <message>
        <source>Export failed: {0}</source>
        <translation>导出失败：{0}</translation>
    </message>
    <message>
        <source>Export failed: cannot write {0}</source>
        <translation>导出失败：无法写入 {0}</translation>
    </message>
    <message>
        <source>Nothing to export yet: no result has been computed</source>
        <translation>还没有可导出的内容：尚未计算出结果</translation>
    </message>
    <message>
        <source>Copy failed: {0}</source>
        <translation>复制失败：{0}</translation>
    </message>
    <message>
        <source>{0} to the clipboard</source>
        <translation>{0} 已复制到剪贴板</translation>
    </message>
    <message>
        <source>Export the window</source>
        <translation>导出窗口</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>A panel as PNG or SVG, the window as PNG, the data as CSV, NPY or JSON</source>
        <translation>面板导出为 PNG 或 SVG，窗口导出为 PNG，数据导出为 CSV、NPY 或 JSON</translation>
    </message>
    <message>
        <source>Export the window as PNG…</source>
        <translation>把窗口导出为 PNG…</translation>
    </message>
    <message>
        <source>Copy the current view to the clipboard</source>
        <translation>把当前视图复制到剪贴板</translation>
    </message>
</context>
<context>
    <name>HeadGrid</name>
    <message>
        <source>head {h}: {text}</source>
        <translation>头 {h}：{text}</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Which stage every head shows (weights by default)</source>
        <translation>每个头显示哪个阶段（默认为权重）</translation>
    </message>
    <message>
        <source>Click a head to select it; H̄ is the mean entropy of its weight rows.</source>
        <translation>点击一个头来选中它；H̄ 是其权重各行的平均熵。</translation>
    </message>
    <message>
        <source>Nothing to export yet: no result has been computed</source>
        <translation>还没有可导出的内容：尚未计算出结果</translation>
    </message>
    <message>
        <source>All heads</source>
        <translation>所有头</translation>
    </message>
</context>
<context>
    <name>Lesson</name>
    <message>
        <source>Tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>The text is cut into tokens. A pretrained model adds its own [CLS] at the start and [SEP] at the end; characters it does not know become [UNK].</source>
        <translation>文本被切分成词元。预训练模型在开头加上 [CLS]、在结尾加上 [SEP]；它不认识的字符变成 [UNK]。</translation>
    </message>
    <message>
        <source>Input vectors X</source>
        <translation>输入向量 X</translation>
    </message>
    <message>
        <source>Each token becomes one row of numbers. With pretrained weights these are the real hidden states entering the chosen layer, so earlier layers have already mixed in context.</source>
        <translation>每个词元变成一行数字。使用预训练权重时，这些是进入所选层的真实隐藏状态，前面的层已经混入了上下文。</translation>
    </message>
    <message>
        <source>Project to queries, keys and values</source>
        <translation>投影为查询、键和值</translation>
    </message>
    <message>
        <source>Three learned matrices give every token three roles: a query (what am I looking for?), a key (what do I offer to be found by?) and a value (what do I hand over if chosen?). Like a shop search: the query is what you type, keys are product names, values are the products.</source>
        <translation>三个学习得到的矩阵给每个词元三个角色：查询 Query（我在找什么？）、键 Key（我凭什么被找到？）和值 Value（被选中时我交出什么？）。就像网购搜索：查询是你输入的内容，键是商品名称，值是商品本身。</translation>
    </message>
    <message>
        <source>Split into heads</source>
        <translation>拆分成多个头</translation>
    </message>
    <message>
        <source>The columns of Q, K and V are cut into h equal groups, one per head. Each head attends on its own, so different heads can follow different relations between words.</source>
        <translation>Q、K、V 的列被平均分成 h 组，每个头一组。每个头独立计算注意力，所以不同的头可以关注词与词之间不同的关系。</translation>
    </message>
    <message>
        <source>Score every pair</source>
        <translation>为每一对打分</translation>
    </message>
    <message>
        <source>Each query is compared with each key. The dot product rewards vectors that point the same way and are long; cosine keeps only the angle; additive scoring uses a small tanh network; general scoring puts a matrix between q and k.</source>
        <translation>每个查询都与每个键比较相似度。点积偏好方向一致且较长的向量；余弦只看夹角；加性评分用一个小的 tanh 网络；一般评分在 q 和 k 之间放一个矩阵。</translation>
    </message>
    <message>
        <source>Scale</source>
        <translation>缩放</translation>
    </message>
    <message>
        <source>Dot products grow with the dimension, and large scores push softmax towards a single winner. Dividing by √d_k keeps them moderate; a temperature τ below 1 sharpens the choice, above 1 softens it.</source>
        <translation>点积随维度增大，过大的分数会让 softmax 只剩一个赢家。除以 √d_k 让分数保持适中；温度 τ 小于 1 使选择更尖锐，大于 1 使其更平缓。</translation>
    </message>
    <message>
        <source>Mask</source>
        <translation>掩码</translation>
    </message>
    <message>
        <source>A mask decides which keys a query may see: a causal mask hides the future, a window keeps only nearby tokens (local attention), a valid length hides padding. Hidden keys receive exactly zero weight.</source>
        <translation>掩码决定查询能看到哪些键：因果掩码遮住未来，窗口只保留附近的词元（局部注意力），有效长度遮住填充。被遮住的键权重恰好为零。</translation>
    </message>
    <message>
        <source>Normalise: softmax or a hard choice</source>
        <translation>归一化：softmax 或硬选择</translation>
    </message>
    <message>
        <source>Softmax turns each row of scores into weights between 0 and 1 that add up to 1, and lets the largest scores stand out. Hard attention keeps only the best key (weight 1, all others 0); sampling draws one key with the softmax probabilities.</source>
        <translation>Softmax 把每行分数变成 0 到 1 之间、总和为 1 的注意力权重，并突出最大的分数。硬注意力只保留最好的键（权重 1，其余为 0）；采样按 softmax 概率抽取一个键。</translation>
    </message>
    <message>
        <source>Weighted sum of the values</source>
        <translation>对值加权求和</translation>
    </message>
    <message>
        <source>Each query&apos;s output is a blend of the value rows, mixed in the proportions of its weights. Important tokens contribute much, ignored tokens almost nothing.</source>
        <translation>每个查询的输出是各值行按其权重比例的混合。重要的词元贡献大，被忽略的词元几乎没有贡献。</translation>
    </message>
    <message>
        <source>Concatenate the heads</source>
        <translation>拼接各个头</translation>
    </message>
    <message>
        <source>The outputs of all heads are placed side by side, giving back one row of the full width for every query.</source>
        <translation>所有头的输出并排拼接，每个查询重新得到一行完整宽度的向量。</translation>
    </message>
    <message>
        <source>Project with W_O</source>
        <translation>用 W_O 投影</translation>
    </message>
    <message>
        <source>A last learned matrix mixes the heads&apos; results together. In a Transformer this output is then added to the input (residual) and passes on to the next layer.</source>
        <translation>最后一个学习得到的矩阵把各个头的结果混合在一起。在 Transformer 中，这个输出再与输入相加（残差），传给下一层。</translation>
    </message>
</context>
<context>
    <name>LessonPanel</name>
    <message>
        <source>Step {n} of {total}:</source>
        <translation>第 {n} 步，共 {total} 步：</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Previous stage (←)</source>
        <translation>上一阶段（←）</translation>
    </message>
    <message>
        <source>Next stage (→)</source>
        <translation>下一阶段（→）</translation>
    </message>
    <message>
        <source>Walk through the stages by itself at the chosen speed</source>
        <translation>按选定的速度自动逐个阶段播放</translation>
    </message>
    <message>
        <source>slow</source>
        <translation>慢</translation>
    </message>
    <message>
        <source>normal</source>
        <translation>中</translation>
    </message>
    <message>
        <source>fast</source>
        <translation>快</translation>
    </message>
    <message>
        <source>{speed} ({s} s a step)</source>
        <translation>{speed}（每步 {s} 秒）</translation>
    </message>
    <message>
        <source>How long Play stays on each stage</source>
        <translation>播放时每个阶段停留多久</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Loading the model… the first result appears in a moment.</source>
        <translation>正在加载模型……第一个结果马上就出来。</translation>
    </message>
    <message>
        <source>Cancelled: the window keeps the last result. Edit anything to compute again.</source>
        <translation>已取消：窗口保留上一个结果。修改任何内容即可重新计算。</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <source>Note: </source>
        <translation>注意：</translation>
    </message>
    <message>
        <source>No result yet</source>
        <translation>尚无结果</translation>
    </message>
    <message>
        <source> {model} layer {layer}</source>
        <translation> {model} 第 {layer} 层</translation>
    </message>
    <message>
        <source>device {device}  |  tokens {nq}×{nk}  |  {heads} heads of {dk}  |  {source}  |  compute {compute} ms  |  render {render} ms</source>
        <translation>设备 {device}  |  词元 {nq}×{nk}  |  {heads} 个头，每头 {dk} 维  |  {source}  |  计算 {compute} ms  |  绘制 {render} ms</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Attention Explorer</source>
        <translation>注意力探索器</translation>
    </message>
    <message>
        <source>(The views still show the last good result.)</source>
        <translation>（视图仍显示上一个正确的结果。）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Drop the computation in progress and keep the last result</source>
        <translation>放弃正在进行的计算，保留上一个结果</translation>
    </message>
</context>
<context>
    <name>Messages</name>
    <message>
        <source>Cannot compute this: {0}</source>
        <translation>无法计算：{0}</translation>
    </message>
    <message>
        <source>The model could not be used: {0}</source>
        <translation>无法使用这个模型：{0}</translation>
    </message>
    <message>
        <source>Unexpected error ({0}): {1}</source>
        <translation>意外错误（{0}）：{1}</translation>
    </message>
</context>
<context>
    <name>ModelOverview</name>
    <message>
        <source>Attention weights of every layer and head for the current sentence. Click one to open it in the pipeline.</source>
        <translation>当前句子在每一层、每个头的注意力权重。点击一个在流程中打开。</translation>
    </message>
    <message>
        <source>head {h}</source>
        <translation>头 {h}</translation>
    </message>
    <message>
        <source>layer {n}</source>
        <translation>第 {n} 层</translation>
    </message>
    <message>
        <source>Computing every layer and head…</source>
        <translation>正在计算每一层、每个头…</translation>
    </message>
    <message>
        <source>these weights</source>
        <translation>这些权重</translation>
    </message>
    <message>
        <source>{source}: attention weights of {layers} layer(s) × {heads} heads for {nq}×{nk} tokens. Click one to open it in the pipeline.</source>
        <translation>{source}：{layers} 层 × {heads} 个头的注意力权重，{nq}×{nk} 个词元。点击一个在流程中打开。</translation>
    </message>
    <message>
        <source>layer {layer}, head {head}</source>
        <translation>第 {layer} 层，头 {head}</translation>
    </message>
    <message>
        <source>Nothing to export yet: no result has been computed</source>
        <translation>还没有可导出的内容：尚未计算出结果</translation>
    </message>
    <message>
        <source>Model overview</source>
        <translation>模型总览</translation>
    </message>
</context>
<context>
    <name>PipelineView</name>
    <message>
        <source>visible</source>
        <translation>可见</translation>
    </message>
    <message>
        <source>hidden (masked)</source>
        <translation>被遮住（已掩码）</translation>
    </message>
    <message>
        <source>Head (of {n})</source>
        <translation>头（共 {n} 个）</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>The head whose stages are shown (keys 1-9 pick heads 0-8)</source>
        <translation>显示哪个头的各阶段（按键 1-9 选择头 0-8）</translation>
    </message>
    <message>
        <source>Values on cells</source>
        <translation>单元格显示数值</translation>
    </message>
    <message>
        <source>Write each cell&apos;s value on it when the cells are large enough</source>
        <translation>单元格足够大时在其上写出数值</translation>
    </message>
    <message>
        <source>Point at a cell to read its exact value; click to select it.</source>
        <translation>指向单元格可读出精确数值；点击选中。</translation>
    </message>
    <message>
        <source>Nothing to export yet: no result has been computed</source>
        <translation>还没有可导出的内容：尚未计算出结果</translation>
    </message>
    <message>
        <source>Pipeline: every stage of the head</source>
        <translation>流程：该头的每个阶段</translation>
    </message>
    <message>
        <source>Pipeline stage: {0}</source>
        <translation>流程阶段：{0}</translation>
    </message>
</context>
<context>
    <name>Presets</name>
    <message>
        <source>Thinking Machines (self-attention)</source>
        <translation>Thinking Machines（自注意力）</translation>
    </message>
    <message>
        <source>Two words attending to each other: the smallest example of the lesson.</source>
        <translation>两个词互相关注：本课最小的例子。</translation>
    </message>
    <message>
        <source>Who is &apos;it&apos;? (the tired animal)</source>
        <translation>“it”指谁？（累了的动物）</translation>
    </message>
    <message>
        <source>Layer 5, head 11: the row of &apos;it&apos; puts 0.65 of its weight on &apos;animal&apos; and 0.02 on &apos;street&apos; (layer 3, head 1 does the same); other heads look elsewhere.</source>
        <translation>第 5 层第 11 个头：“it”这一行把 0.65 的注意力权重给了“animal”，只给“street”0.02（第 3 层第 1 个头也是如此）；其他头关注别处。</translation>
    </message>
    <message>
        <source>Shopping search: red running shoes</source>
        <translation>购物搜索：红色跑鞋</translation>
    </message>
    <message>
        <source>Soft addressing: the query&apos;s weights over the product names (keys) blend their items (values) into one answer.</source>
        <translation>软寻址：查询 Query 在商品名称（键 Key）上的注意力权重，把对应的商品（值 Value）混合成一个答案。</translation>
    </message>
    <message>
        <source>Translation: English query over French</source>
        <translation>翻译：英文查询看法文句子</translation>
    </message>
    <message>
        <source>Cross-attention as in an encoder-decoder translator: do words find their partners?</source>
        <translation>编码器-解码器翻译模型中的交叉注意力：每个词能找到对应的词吗？</translation>
    </message>
    <message>
        <source>Chinese sentence (watch the [UNK] notice)</source>
        <translation>中文句子（注意 [UNK] 提示）</translation>
    </message>
    <message>
        <source>MiniLM&apos;s vocabulary knows few Chinese characters: most become [UNK].</source>
        <translation>MiniLM 的词表认识的汉字很少：大多数会变成 [UNK]。</translation>
    </message>
    <message>
        <source>Causal mask (a decoder&apos;s view)</source>
        <translation>因果掩码（解码器的视角）</translation>
    </message>
    <message>
        <source>Each token may only look at itself and earlier tokens: the upper triangle is hidden.</source>
        <translation>每个词元只能看到自己和前面的词元：右上三角被掩码遮住。</translation>
    </message>
    <message>
        <source>Hard attention: one key per query</source>
        <translation>硬注意力：每个查询只选一个键</translation>
    </message>
    <message>
        <source>Hard attention keeps only the best key of every row (compare with soft).</source>
        <translation>硬注意力在每一行只保留得分最高的键（可与软注意力对比）。</translation>
    </message>
    <message>
        <source>Sharp softmax: temperature 0.2</source>
        <translation>尖锐的 softmax：温度 0.2</translation>
    </message>
    <message>
        <source>A low temperature makes the softmax almost hard; raise τ to flatten it.</source>
        <translation>低温度让 softmax 几乎变成硬选择；调高 τ 会让它变平。</translation>
    </message>
    <message>
        <source>Local window of 2 (random weights)</source>
        <translation>宽度为 2 的局部窗口（随机权重）</translation>
    </message>
    <message>
        <source>Seeded random weights with a window mask: each query sees at most 2 neighbours per side.</source>
        <translation>带种子的随机权重加窗口掩码：每个查询在每一侧最多看到 2 个邻居。</translation>
    </message>
    <message>
        <source>Cosine scoring</source>
        <translation>余弦评分</translation>
    </message>
    <message>
        <source>Cosine similarity ignores vector length: scores lie between -1 and 1.</source>
        <translation>余弦相似度不考虑向量长度：分数在 -1 到 1 之间。</translation>
    </message>
    <message>
        <source>Soft attention: every key gets a share</source>
        <translation>软注意力：每个键都分到一份</translation>
    </message>
    <message>
        <source>The same sentence as the hard preset, with the softmax: compare the two weight maps.</source>
        <translation>与硬注意力示例相同的句子，改用 softmax：对比两张注意力权重图。</translation>
    </message>
    <message>
        <source>Padding mask (valid:4)</source>
        <translation>填充掩码（valid:4）</translation>
    </message>
    <message>
        <source>As d2l&apos;s valid_lens: only the first 4 keys ([CLS] short text then) are real; the padding after them gets weight 0.</source>
        <translation>如同 d2l 的 valid_lens：只有前 4 个键（[CLS] short text then）是真实的；其后的填充权重为 0。</translation>
    </message>
    <message>
        <source>Chinese: a teacher at the blackboard</source>
        <translation>中文：黑板前的老师</translation>
    </message>
    <message>
        <source>A short Chinese sentence: the tokenizer splits it into characters; unknown ones stay visible as [UNK:字].</source>
        <translation>一个简短的中文句子：分词器把它切成单个汉字；不认识的字显示为 [UNK:字]。</translation>
    </message>
    <message>
        <source>Bahdanau additive scoring (translation)</source>
        <translation>Bahdanau 加性评分（翻译）</translation>
    </message>
    <message>
        <source>Additive scoring vᵀtanh(W₁q + W₂k) on the translation pair; the worked arithmetic shows the tanh layer (W₁, W₂, v are seeded, untrained).</source>
        <translation>在翻译句对上使用加性评分 vᵀtanh(W₁q + W₂k)；逐步计算会展示 tanh 层（W₁、W₂、v 由种子生成，未经训练）。</translation>
    </message>
    <message>
        <source>Multi-head on random weights (5 heads of 20)</source>
        <translation>随机权重上的多头注意力（5 个头，每头 20 维）</translation>
    </message>
    <message>
        <source>Seeded random weights 100 wide split into 5 heads, as in d2l&apos;s MultiHeadAttention test (num_hiddens 100, 5 heads, valid length 3).</source>
        <translation>宽度 100 的带种子随机权重分成 5 个头，如同 d2l 的 MultiHeadAttention 测试（num_hiddens 100，5 个头，有效长度 3）。</translation>
    </message>
</context>
<context>
    <name>SessionFiles</name>
    <message>
        <source>Attention Explorer session (*.aexp.json *.json)</source>
        <translation>注意力探索器课程 (*.aexp.json *.json)</translation>
    </message>
    <message>
        <source>Cannot open the session: {0}</source>
        <translation>无法打开课程：{0}</translation>
    </message>
    <message>
        <source>Opened {0}</source>
        <translation>已打开 {0}</translation>
    </message>
    <message>
        <source>Cannot save the session: {0}</source>
        <translation>无法保存课程：{0}</translation>
    </message>
    <message>
        <source>Saved {0}</source>
        <translation>已保存 {0}</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>打开课程</translation>
    </message>
    <message>
        <source>Save session</source>
        <translation>保存课程</translation>
    </message>
    <message>
        <source>(none yet)</source>
        <translation>（暂无）</translation>
    </message>
    <message>
        <source>&amp;Open session…</source>
        <translation>打开课程(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a saved lesson: inputs, options, selection, theme, language</source>
        <translation>打开保存的课程：输入、选项、选择、主题、语言</translation>
    </message>
    <message>
        <source>&amp;Save session</source>
        <translation>保存课程(&amp;S)</translation>
    </message>
    <message>
        <source>Save the whole state to the current session file</source>
        <translation>把全部状态保存到当前课程文件</translation>
    </message>
    <message>
        <source>Save session &amp;as…</source>
        <translation>课程另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Recent sessions</source>
        <translation>最近的课程</translation>
    </message>
</context>
<context>
    <name>ShortcutSheet</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>功能</translation>
    </message>
</context>
<context>
    <name>Stages</name>
    <message>
        <source>weights (after softmax / hard)</source>
        <translation>注意力权重（softmax / 硬选择之后）</translation>
    </message>
    <message>
        <source>raw scores</source>
        <translation>原始分数</translation>
    </message>
    <message>
        <source>scaled scores</source>
        <translation>缩放后的分数</translation>
    </message>
    <message>
        <source>head outputs (weights·V)</source>
        <translation>各头输出（权重·V）</translation>
    </message>
    <message>
        <source>head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>X (queries = keys)</source>
        <translation>X（查询 = 键）</translation>
    </message>
    <message>
        <source>X (query side)</source>
        <translation>X（查询一侧）</translation>
    </message>
    <message>
        <source>scaled = scores (no scaling)</source>
        <translation>scaled = scores（不缩放）</translation>
    </message>
    <message>
        <source>mask: {mask} (1 = visible)</source>
        <translation>掩码：{mask}（1 = 可见）</translation>
    </message>
    <message>
        <source>entropy of each weight row (nats)</source>
        <translation>每行权重的熵（奈特）</translation>
    </message>
</context>
<context>
    <name>Tabs</name>
    <message>
        <source>Pipeline (one head)</source>
        <translation>流程（单个头）</translation>
    </message>
    <message>
        <source>Every stage of the selected head, in order: X, Q, K, V, scores, scaled, mask, weights, head output, concat, output</source>
        <translation>所选头的每个阶段，按顺序：X、Q、K、V、分数、缩放、掩码、权重、头输出、拼接、输出</translation>
    </message>
    <message>
        <source>All heads</source>
        <translation>所有头</translation>
    </message>
    <message>
        <source>One stage for every head; click a head to select it</source>
        <translation>每个头的同一阶段；点击一个头来选中它</translation>
    </message>
    <message>
        <source>Model overview</source>
        <translation>模型总览</translation>
    </message>
    <message>
        <source>Attention weights of every layer and head; click one to open it</source>
        <translation>每一层每个头的注意力权重；点击一个打开它</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>The selected head&apos;s weights for the current settings (A) and for B, and B − A</source>
        <translation>所选头在当前设置（A）和 B 下的权重，以及 B − A</translation>
    </message>
</context>
<context>
    <name>WorkedPanel</name>
    <message>
        <source>Click a cell of the scores or weights (query row i, key column j) to see its arithmetic: the sum of products, the scaling, the softmax and the weighted sum.</source>
        <translation>点击分数或权重的一个单元格（查询行 i，键列 j）查看它的计算：乘积之和、缩放、softmax 和加权求和。</translation>
    </message>
    <message>
        <source>The selected cell is outside this result.</source>
        <translation>所选单元格不在这个结果中。</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>{0} more terms</source>
        <translation>另有 {0} 项</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>分数</translation>
    </message>
    <message>
        <source>no scaling</source>
        <translation>不缩放</translation>
    </message>
    <message>
        <source>Scale</source>
        <translation>缩放</translation>
    </message>
    <message>
        <source>visible</source>
        <translation>可见</translation>
    </message>
    <message>
        <source>masked: this key is hidden from this query</source>
        <translation>已掩码：此查询看不到这个键</translation>
    </message>
    <message>
        <source>Mask</source>
        <translation>掩码</translation>
    </message>
    <message>
        <source>Softmax over row {0}</source>
        <translation>对第 {0} 行做 softmax</translation>
    </message>
    <message>
        <source>{0} more keys</source>
        <translation>另有 {0} 个键</translation>
    </message>
    <message>
        <source>Output of query {0}</source>
        <translation>查询 {0} 的输出</translation>
    </message>
    <message>
        <source>{0} smaller terms</source>
        <translation>另有 {0} 个较小的项</translation>
    </message>
    <message>
        <source>{0} components</source>
        <translation>共 {0} 个分量</translation>
    </message>
    <message>
        <source>subtracting the row maximum does not change the weights</source>
        <translation>减去行最大值不会改变注意力权重</translation>
    </message>
    <message>
        <source>scaled</source>
        <translation>缩放后</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Every key of this row is masked: all weights are 0.</source>
        <translation>这一行的每个键都被掩码：所有权重都是 0。</translation>
    </message>
    <message>
        <source>the weight is one-hot</source>
        <translation>权重是独热的</translation>
    </message>
</context>
</TS>
