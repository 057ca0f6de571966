<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Application</name>
    <message>
        <source>Unexpected error</source>
        <translation>意外错误</translation>
    </message>
    <message>
        <source>Bagscope caught an error it did not expect and keeps running. What it was doing may be incomplete.</source>
        <translation>Bagscope 捕获了一个意外错误，程序继续运行。正在进行的操作可能不完整。</translation>
    </message>
</context>
<context>
    <name>Bagscope</name>
    <message>
        <source> (not replaced unless &quot;Replace existing files&quot; is chosen)</source>
        <translation>（除非选择“替换已有文件”，否则不替换）</translation>
    </message>
</context>
<context>
    <name>ExportOption</name>
    <message>
        <source>binary</source>
        <translation>二进制 (binary)</translation>
    </message>
    <message>
        <source>binary_compressed</source>
        <translation>压缩二进制 (binary_compressed)</translation>
    </message>
    <message>
        <source>ascii</source>
        <translation>文本 (ascii)</translation>
    </message>
    <message>
        <source>log time and header stamp</source>
        <translation>记录时间和 header 时间戳</translation>
    </message>
    <message>
        <source>log time</source>
        <translation>记录时间</translation>
    </message>
    <message>
        <source>header stamp</source>
        <translation>header 时间戳</translation>
    </message>
    <message>
        <source>PLY as text (ascii) instead of binary</source>
        <translation>PLY 使用文本格式（ascii）而非二进制</translation>
    </message>
    <message>
        <source>PCD encoding:</source>
        <translation>PCD 编码：</translation>
    </message>
    <message>
        <source>Fields:</source>
        <translation>字段：</translation>
    </message>
    <message>
        <source>all fields, e.g. x,y,z,intensity=reflectance</source>
        <translation>全部字段，例如 x,y,z,intensity=reflectance</translation>
    </message>
    <message>
        <source>fields %1 only</source>
        <translation>仅字段 %1</translation>
    </message>
    <message>
        <source>Leave out points without x, y, z (NaN)</source>
        <translation>去掉没有 x、y、z 的点（NaN）</translation>
    </message>
    <message>
        <source>points without x, y, z left out</source>
        <translation>省略没有 x、y、z 的点</translation>
    </message>
    <message>
        <source>Intensity divided by the cloud&apos;s maximum (0–1)</source>
        <translation>强度除以该帧最大值（0–1）</translation>
    </message>
    <message>
        <source>intensity normalised</source>
        <translation>强度已归一化</translation>
    </message>
    <message>
        <source>Target frame:</source>
        <translation>目标坐标系：</translation>
    </message>
    <message>
        <source>moved into frame %1</source>
        <translation>变换到坐标系 %1</translation>
    </message>
    <message>
        <source>Axes (new x, y, z):</source>
        <translation>坐标轴（新 x, y, z）：</translation>
    </message>
    <message>
        <source>x,y,z (as recorded)</source>
        <translation>x,y,z（按录制）</translation>
    </message>
    <message>
        <source>axes %1</source>
        <translation>坐标轴 %1</translation>
    </message>
    <message>
        <source>JPEG quality:</source>
        <translation>JPEG 质量：</translation>
    </message>
    <message>
        <source>Video frame rate:</source>
        <translation>视频帧率：</translation>
    </message>
    <message>
        <source>the topic&apos;s rate</source>
        <translation>话题自身频率</translation>
    </message>
    <message>
        <source>video at %1 fps</source>
        <translation>视频 %1 fps</translation>
    </message>
    <message>
        <source>Time columns:</source>
        <translation>时间列：</translation>
    </message>
    <message>
        <source>Times in seconds (else nanoseconds)</source>
        <translation>时间以秒为单位（否则为纳秒）</translation>
    </message>
    <message>
        <source>Array columns at most:</source>
        <translation>数组列数上限：</translation>
    </message>
    <message>
        <source>PLY (and PCD) as text instead of binary</source>
        <translation>以文本而非二进制写出 PLY（及 PCD）</translation>
    </message>
    <message>
        <source>how PCD stores points</source>
        <translation>PCD 存储点的方式</translation>
    </message>
    <message>
        <source>the fields to write, in order; name=newname renames (PLY, PCD and NumPy field names)</source>
        <translation>要写出的字段，按顺序；name=newname 可重命名（PLY、PCD 和 NumPy 字段名）</translation>
    </message>
    <message>
        <source>leave out points without x, y, z (NaN); always for bin and las</source>
        <translation>省略没有 x、y、z 的点（NaN）；bin 和 las 总是省略</translation>
    </message>
    <message>
        <source>intensity divided by the cloud&apos;s maximum (0-1)</source>
        <translation>强度除以该点云的最大值（0–1）</translation>
    </message>
    <message>
        <source>move clouds into this frame (from /tf and /tf_static) at their stamp; empty: as recorded</source>
        <translation>按时间戳将点云变换到此坐标系（依据 /tf 和 /tf_static）；留空：保持记录时的坐标系</translation>
    </message>
    <message>
        <source>axes remapped after the target frame: z,-y,x makes new x = old z, new y = -old y, new z = old x</source>
        <translation>在目标坐标系之后重映射坐标轴：z,-y,x 表示新 x = 旧 z，新 y = −旧 y，新 z = 旧 x</translation>
    </message>
    <message>
        <source>JPEG quality (default 95)</source>
        <translation>JPEG 质量（默认 95）</translation>
    </message>
    <message>
        <source>video frames per second (default: the topic&apos;s rate)</source>
        <translation>视频每秒帧数（默认：话题的频率）</translation>
    </message>
    <message>
        <source>the time columns</source>
        <translation>时间列</translation>
    </message>
    <message>
        <source>times in seconds (else nanoseconds)</source>
        <translation>时间以秒为单位（否则为纳秒）</translation>
    </message>
    <message>
        <source>variable-length arrays: at most this many columns (default 16)</source>
        <translation>可变长度数组：最多这么多列（默认 16）</translation>
    </message>
    <message>
        <source>H.264 (plays everywhere)</source>
        <translation>H.264（随处可播放）</translation>
    </message>
    <message>
        <source>MPEG-4 Part 2 (mp4v)</source>
        <translation>MPEG-4 Part 2 (mp4v)</translation>
    </message>
    <message>
        <source>the MP4&apos;s video codec: h264 (default) or mp4v</source>
        <translation>MP4 的视频编码：h264（默认）或 mp4v</translation>
    </message>
    <message>
        <source>Video codec:</source>
        <translation>视频编码：</translation>
    </message>
    <message>
        <source>H.264 quality: constant rate factor, 0 (lossless) to 51 (default 23)</source>
        <translation>H.264 质量：恒定码率因子，0（无损）到 51（默认 23）</translation>
    </message>
    <message>
        <source>H.264 quality (CRF):</source>
        <translation>H.264 质量 (CRF)：</translation>
    </message>
    <message>
        <source>H.264 speed against size: ultrafast … veryslow (default medium)</source>
        <translation>H.264 速度与大小的权衡：ultrafast … veryslow（默认 medium）</translation>
    </message>
    <message>
        <source>H.264 preset:</source>
        <translation>H.264 预设：</translation>
    </message>
    <message>
        <source>a video topic&apos;s packets (remuxed) at their log times (default) or header stamps</source>
        <translation>视频话题的数据包（重新封装）按记录时间（默认）或消息头时间戳计时</translation>
    </message>
    <message>
        <source>Packet times:</source>
        <translation>数据包时间：</translation>
    </message>
</context>
<context>
    <name>PanelType</name>
    <message>
        <source>Plot</source>
        <translation>曲线图</translation>
    </message>
    <message>
        <source>New &amp;Plot</source>
        <translation>新建曲线图(&amp;P)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+P</source>
        <translation>Ctrl+Shift+P</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>New &amp;Image Viewer</source>
        <translation>新建图像查看器(&amp;I)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+I</source>
        <translation>Ctrl+Shift+I</translation>
    </message>
    <message>
        <source>Show in Image Viewer</source>
        <translation>在图像查看器中显示</translation>
    </message>
    <message>
        <source>3D View</source>
        <translation>3D 视图</translation>
    </message>
    <message>
        <source>New &amp;3D View</source>
        <translation>新建 3D 视图(&amp;3)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+D</source>
        <translation>Ctrl+Shift+D</translation>
    </message>
    <message>
        <source>Show in 3D View</source>
        <translation>在 3D 视图中显示</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>New &amp;Log</source>
        <translation>新建日志(&amp;L)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+L</source>
        <translation>Ctrl+Shift+L</translation>
    </message>
    <message>
        <source>Show in Log</source>
        <translation>在日志中显示</translation>
    </message>
    <message>
        <source>Diagnostics</source>
        <translation>诊断</translation>
    </message>
    <message>
        <source>New Dia&amp;gnostics</source>
        <translation>新建诊断(&amp;G)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+G</source>
        <translation>Ctrl+Shift+G</translation>
    </message>
    <message>
        <source>Show in Diagnostics</source>
        <translation>在诊断中显示</translation>
    </message>
    <message>
        <source>TF Tree</source>
        <translation>TF 树</translation>
    </message>
    <message>
        <source>New &amp;TF Tree</source>
        <translation>新建 TF 树(&amp;T)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+T</source>
        <translation>Ctrl+Shift+T</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>消息列表</translation>
    </message>
    <message>
        <source>New &amp;Messages List</source>
        <translation>新建消息列表(&amp;M)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+M</source>
        <translation>Ctrl+Shift+M</translation>
    </message>
    <message>
        <source>Show in Messages List</source>
        <translation>在消息列表中显示</translation>
    </message>
    <message>
        <source>Map</source>
        <translation>地图</translation>
    </message>
    <message>
        <source>New Ma&amp;p (GPS)</source>
        <translation>新建地图（GPS）(&amp;P)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+A</source>
        <translation>Ctrl+Shift+A</translation>
    </message>
    <message>
        <source>Show on Map</source>
        <translation>在地图上显示</translation>
    </message>
</context>
<context>
    <name>PlotPanel</name>
    <message>
        <source>roll (rad)</source>
        <translation>横滚角（弧度）</translation>
    </message>
    <message>
        <source>pitch (rad)</source>
        <translation>俯仰角（弧度）</translation>
    </message>
    <message>
        <source>yaw (rad)</source>
        <translation>偏航角（弧度）</translation>
    </message>
    <message>
        <source>derivative (per s)</source>
        <translation>导数（每秒）</translation>
    </message>
    <message>
        <source>Derivative</source>
        <translation>导数</translation>
    </message>
    <message>
        <source>integral (× s)</source>
        <translation>积分（× 秒）</translation>
    </message>
    <message>
        <source>Integral</source>
        <translation>积分</translation>
    </message>
    <message>
        <source>moving average (%1)</source>
        <translation>移动平均（%1）</translation>
    </message>
    <message>
        <source>Moving Average (10 samples)</source>
        <translation>移动平均（10 个样本）</translation>
    </message>
    <message>
        <source>Moving Average (1 s)</source>
        <translation>移动平均（1 秒）</translation>
    </message>
    <message>
        <source>moving median (%1)</source>
        <translation>移动中位数（%1）</translation>
    </message>
    <message>
        <source>Moving Median (10 samples)</source>
        <translation>移动中位数（10 个样本）</translation>
    </message>
    <message>
        <source>low-pass filter (%1 Hz)</source>
        <translation>低通滤波（%1 Hz）</translation>
    </message>
    <message>
        <source>Low-Pass Filter…</source>
        <translation>低通滤波器…</translation>
    </message>
    <message>
        <source>Cutoff frequency (Hz):</source>
        <translation>截止频率（Hz）：</translation>
    </message>
    <message>
        <source>absolute value</source>
        <translation>绝对值</translation>
    </message>
    <message>
        <source>Absolute Value</source>
        <translation>绝对值</translation>
    </message>
    <message>
        <source>difference</source>
        <translation>差分</translation>
    </message>
    <message>
        <source>Difference of Consecutive Samples</source>
        <translation>相邻样本之差</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>%1 (topic %2, message %3: %4 bytes, not decoded)</source>
        <translation>%1（话题 %2，第 %3 条消息：%4 字节，未解码）</translation>
    </message>
    <message>
        <source>not a Bagscope layout</source>
        <translation>不是 Bagscope 布局文件</translation>
    </message>
    <message>
        <source>written by a newer Bagscope (layout version %1)</source>
        <translation>由更新版本的 Bagscope 写入（布局版本 %1）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: not JSON (%2 at offset %3)</source>
        <translation>%1：不是有效的 JSON（偏移 %3 处：%2）</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>无法创建 %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 + %n more</source>
        <translation>
            <numerusform>%1 等 %n 个以上</numerusform>
        </translation>
    </message>
    <message>
        <source>this cloud has no x, y and z fields</source>
        <translation>此点云没有 x、y、z 字段</translation>
    </message>
    <message>
        <source>not transformed: %1</source>
        <translation>未变换：%1</translation>
    </message>
    <message>
        <source>%1 (not in this recording)</source>
        <translation>%1（不在此录制中）</translation>
    </message>
    <message>
        <source>No recording is open.</source>
        <translation>没有打开的录制。</translation>
    </message>
    <message>
        <source>%1 is not in this recording.</source>
        <translation>%1 不在此录制中。</translation>
    </message>
    <message>
        <source>0 (unset)</source>
        <translation>0（未设置）</translation>
    </message>
    <message>
        <source>%1 s (not the recording&apos;s clock)</source>
        <translation>%1 秒（不是录制所用的时钟）</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
</context>
<context>
    <name>TopicJob</name>
    <message numerus="yes">
        <source>%n message(s) could not be read: %1</source>
        <translation>
            <numerusform>%n 条消息无法读取：%1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::AboutDialog</name>
    <message>
        <source>Opens ROS 1 and ROS 2 recordings (.bag, .mcap, rosbag2 folders) without ROS: look inside, plot, and export.</source>
        <translation>无需 ROS 即可打开 ROS 1 和 ROS 2 录制数据（.bag、.mcap、rosbag2 文件夹）：查看内容、绘制曲线、导出数据。</translation>
    </message>
    <message>
        <source>Copyright © 2026 The Bagscope developers. Free software under the GNU General Public License, version 3 or later; see Licences.</source>
        <translation>版权所有 © 2026 Bagscope 开发者。依据 GNU 通用公共许可证第 3 版或更高版本发布的自由软件；详见“许可证”。</translation>
    </message>
    <message>
        <source>Copy to Clipboard</source>
        <translation>复制到剪贴板</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>许可证</translation>
    </message>
    <message>
        <source>Linked from the system&apos;s copy on Linux, where its package carries the full licence text; shipped beside the program on Windows and macOS.</source>
        <translation>在 Linux 上链接系统自带的副本，其软件包附有完整的许可证文本；在 Windows 和 macOS 上随程序一同分发。</translation>
    </message>
    <message>
        <source>About Bagscope</source>
        <translation>关于 Bagscope</translation>
    </message>
    <message>
        <source>About</source>
        <translation>关于</translation>
    </message>
    <message>
        <source>Build</source>
        <translation>构建</translation>
    </message>
    <message>
        <source>Licences</source>
        <translation>许可证</translation>
    </message>
    <message>
        <source>not available: %1</source>
        <translation>不可用：%1</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::CloudPanel</name>
    <message>
        <source>Grid</source>
        <translation>网格</translation>
    </message>
    <message>
        <source>TF frames</source>
        <translation>TF 坐标系</translation>
    </message>
    <message>
        <source>Colour by this field (rgb: the cloud&apos;s own colours)</source>
        <translation>按此字段着色（rgb：使用点云自带的颜色）</translation>
    </message>
    <message>
        <source>size </source>
        <translation>大小 </translation>
    </message>
    <message>
        <source>last </source>
        <translation>最近 </translation>
    </message>
    <message>
        <source> frames</source>
        <translation> 帧</translation>
    </message>
    <message>
        <source>Accumulate the last N frames (in the fixed frame)</source>
        <translation>叠加显示最近 N 帧（在固定坐标系中）</translation>
    </message>
    <message>
        <source>Fixed frame: clouds are moved into it through /tf at their stamp</source>
        <translation>固定坐标系：点云按其时间戳通过 /tf 变换到该坐标系</translation>
    </message>
    <message>
        <source>Colour:</source>
        <translation>颜色：</translation>
    </message>
    <message>
        <source>Fixed frame:</source>
        <translation>固定坐标系：</translation>
    </message>
    <message>
        <source>Reset View</source>
        <translation>重置视角</translation>
    </message>
    <message>
        <source>Top</source>
        <translation>俯视</translation>
    </message>
    <message>
        <source>Side</source>
        <translation>侧视</translation>
    </message>
    <message>
        <source>(sensor frame)</source>
        <translation>（传感器坐标系）</translation>
    </message>
    <message>
        <source>Save Frame…</source>
        <translation>保存当前帧…</translation>
    </message>
    <message>
        <source>Save This Frame As</source>
        <translation>将当前帧另存为</translation>
    </message>
    <message>
        <source>Colour map for the field&apos;s values</source>
        <translation>字段值使用的色图</translation>
    </message>
    <message numerus="yes">
        <source>%1 points in %n frame(s) · %2 · stamp %3</source>
        <translation>
            <numerusform>%n 帧共 %1 个点 · %2 · 时间戳 %3</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: no cloud is shown</source>
        <translation>%1：没有显示点云</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>图层</translation>
    </message>
    <message>
        <source>Topics drawn with the cloud: markers, paths, poses, odometry, maps, polygons, camera frustums</source>
        <translation>与点云一同绘制的话题：标记、路径、位姿、里程计、地图、多边形、相机视锥</translation>
    </message>
    <message>
        <source>This recording has no markers, paths, poses or maps.</source>
        <translation>此录制中没有标记、路径、位姿或地图。</translation>
    </message>
    <message>
        <source>(no namespace)</source>
        <translation>（无命名空间）</translation>
    </message>
    <message>
        <source>decay </source>
        <translation>衰减 </translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>no decay</source>
        <translation>不衰减</translation>
    </message>
    <message>
        <source>Show only the frames of the last seconds before the playhead (at most the last N)</source>
        <translation>只显示播放头之前最近若干秒内的帧（最多 N 帧）</translation>
    </message>
    <message>
        <source>Layer Settings…</source>
        <translation>图层设置…</translation>
    </message>
    <message>
        <source>Namespaces and Entities</source>
        <translation>命名空间与实体</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… 另有 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>This recording has no point cloud or laser scan topics; Layers draws its markers, paths, poses and maps.</source>
        <translation>此录制中没有点云或激光扫描话题；“图层”可绘制其中的标记、路径、位姿和地图。</translation>
    </message>
    <message>
        <source>The camera moves with this frame as the playhead moves (in the fixed frame)</source>
        <translation>播放头移动时，相机随此坐标系移动（在固定坐标系中）</translation>
    </message>
    <message>
        <source>follow no frame</source>
        <translation>不跟随坐标系</translation>
    </message>
    <message>
        <source>1 in %1 points drawn while playing</source>
        <translation>播放时每 %1 个点绘制 1 个</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::ColourRange</name>
    <message>
        <source>Auto range</source>
        <translation>自动范围</translation>
    </message>
    <message>
        <source>Value shown as the first colour of the map</source>
        <translation>对应色图起始颜色的值</translation>
    </message>
    <message>
        <source>Value shown as the last colour of the map</source>
        <translation>对应色图末尾颜色的值</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::CompareDialog</name>
    <message>
        <source>Compare With</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>A bag, MCAP file or rosbag2 folder</source>
        <translation>bag、MCAP 文件或 rosbag2 文件夹</translation>
    </message>
    <message>
        <source>Files…</source>
        <translation>文件…</translation>
    </message>
    <message>
        <source>Folder…</source>
        <translation>文件夹…</translation>
    </message>
    <message>
        <source>Run B</source>
        <translation>运行 B</translation>
    </message>
    <message>
        <source>Recordings (%1);;All files (*)</source>
        <translation>录制文件 (%1);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Their starts</source>
        <translation>两者的开始</translation>
    </message>
    <message>
        <source>Their starts, B moved by an offset</source>
        <translation>两者的开始，B 再偏移</translation>
    </message>
    <message>
        <source>An event in both runs</source>
        <translation>两次运行中的事件</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>B later by:</source>
        <translation>B 延后：</translation>
    </message>
    <message>
        <source>empty: the topic&apos;s first message</source>
        <translation>留空：该话题的第一条消息</translation>
    </message>
    <message>
        <source>Topic:</source>
        <translation>话题：</translation>
    </message>
    <message>
        <source>First time the field crosses:</source>
        <translation>字段首次越过：</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>Run B:</source>
        <translation>运行 B：</translation>
    </message>
    <message>
        <source>Align by:</source>
        <translation>对齐方式：</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::DiagnosticsPanel</name>
    <message>
        <source>Hardware / Name</source>
        <translation>硬件 / 名称</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>级别</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Since (s)</source>
        <translation>起始（秒）</translation>
    </message>
    <message>
        <source>The latest status of each entry at the playhead; expand an entry for its values and its level changes</source>
        <translation>播放头处每个条目的最新状态；展开条目可查看其键值和级别变化</translation>
    </message>
    <message>
        <source>This recording has no diagnostics topics.</source>
        <translation>此录制中没有诊断话题。</translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation>正在读取…</translation>
    </message>
    <message numerus="yes">
        <source>%n entries</source>
        <translation>
            <numerusform>%n 个条目</numerusform>
        </translation>
    </message>
    <message>
        <source>Level changes</source>
        <translation>级别变化</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::Document</name>
    <message>
        <source>Decoding</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>%1 cannot be decoded: %2</source>
        <translation>%1 无法解码：%2</translation>
    </message>
    <message>
        <source>Not opened</source>
        <translation>未能打开</translation>
    </message>
    <message>
        <source>Recording</source>
        <translation>录制</translation>
    </message>
    <message>
        <source>Add the folder of its package&apos;s .msg files, or a recording that defines it, in Settings ▸ Message definitions.</source>
        <translation>请在 设置 ▸ 消息定义 中添加其功能包的 .msg 文件夹，或定义了该类型的录制文件。</translation>
    </message>
    <message>
        <source>The alignment &apos;%1&apos; is not understood</source>
        <translation>无法理解对齐方式“%1”</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::ExportWizard</name>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>What to export</source>
        <translation>导出内容</translation>
    </message>
    <message>
        <source>Tick the topics and choose a format for each.</source>
        <translation>勾选要导出的话题，并为每个话题选择格式。</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>话题</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>消息数</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间范围</translation>
    </message>
    <message>
        <source>Which part of the recording, and how many of its messages.</source>
        <translation>导出录制的哪一部分，以及其中多少条消息。</translation>
    </message>
    <message>
        <source>The whole recording</source>
        <translation>整个录制</translation>
    </message>
    <message>
        <source>The range selected on the timeline</source>
        <translation>时间轴上选定的范围</translation>
    </message>
    <message>
        <source>From … to … (seconds from the start):</source>
        <translation>从 … 到 …（从开头起算的秒数）：</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Keep every n-th message of each topic (1: all)</source>
        <translation>每个话题每隔 n 条保留一条（1：全部）</translation>
    </message>
    <message>
        <source>Keep every n-th message of each topic (1: all):</source>
        <translation>每个话题每隔 n 条保留一条（1：全部）：</translation>
    </message>
    <message>
        <source>How</source>
        <translation>导出方式</translation>
    </message>
    <message>
        <source>Options of the chosen formats.</source>
        <translation>所选格式的选项。</translation>
    </message>
    <message>
        <source>Images and video</source>
        <translation>图像和视频</translation>
    </message>
    <message>
        <source>Tables (CSV, NumPy)</source>
        <translation>表格（CSV、NumPy）</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>保存位置</translation>
    </message>
    <message>
        <source>The folder and the file names. Files are written under a temporary name and renamed when complete.</source>
        <translation>文件夹和文件名。文件先以临时名称写入，完成后再重命名。</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>default: {topic}/{bag}_frame_{index}.{ext} per frame, {bag}_{topic}.{ext} per topic</source>
        <translation>默认：每帧 {topic}/{bag}_frame_{index}.{ext}，每个话题 {bag}_{topic}.{ext}</translation>
    </message>
    <message>
        <source>Placeholders: {bag} {topic} {index} {stamp_ns} {log_time_ns} {ext}; &apos;/&apos; makes folders</source>
        <translation>占位符：{bag} {topic} {index} {stamp_ns} {log_time_ns} {ext}；“/”表示子文件夹</translation>
    </message>
    <message>
        <source>Keep existing files: stop and list them</source>
        <translation>保留已有文件：停止导出并列出它们</translation>
    </message>
    <message>
        <source>Replace existing files</source>
        <translation>替换已有文件</translation>
    </message>
    <message>
        <source>Folder:</source>
        <translation>文件夹：</translation>
    </message>
    <message>
        <source>File names:</source>
        <translation>文件名：</translation>
    </message>
    <message>
        <source>The first files:</source>
        <translation>最先生成的文件：</translation>
    </message>
    <message>
        <source>Export into</source>
        <translation>导出到</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Cancel Export</source>
        <translation>取消导出</translation>
    </message>
    <message>
        <source>Open Folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <source>File names may only make folders inside the chosen folder: no absolute path, no &apos;..&apos;.</source>
        <translation>文件名只能在所选文件夹内建立子文件夹：不能用绝对路径，也不能用“..”。</translation>
    </message>
    <message>
        <source>With several topics the file names need {topic}, or they would collide.</source>
        <translation>导出多个话题时，文件名中需要包含 {topic}，否则会重名。</translation>
    </message>
    <message>
        <source>Files that exist will be replaced, e.g. %1.</source>
        <translation>已有文件将被替换，例如 %1。</translation>
    </message>
    <message>
        <source>Files exist already, e.g. %1: the export will stop. Choose &quot;Replace existing files&quot; or another folder.</source>
        <translation>文件已存在，例如 %1：导出将会停止。请选择“替换已有文件”或换一个文件夹。</translation>
    </message>
    <message>
        <source>Choose a folder.</source>
        <translation>请选择文件夹。</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>Exporting…</source>
        <translation>正在导出…</translation>
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
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>about %1 s left</source>
        <translation>约剩 %1 秒</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>正在开始</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s), %1, in %2 s.</source>
        <translation>
            <numerusform>%n 个文件，%1，用时 %2 秒。</numerusform>
        </translation>
    </message>
    <message>
        <source>Skipped messages: %1</source>
        <translation>跳过的消息：%1</translation>
    </message>
    <message>
        <source>Not replaced (they exist): %1</source>
        <translation>未替换（已存在）：%1</translation>
    </message>
    <message numerus="yes">
        <source> and %n more</source>
        <translation>
            <numerusform> 等另外 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>one message in %1 of each topic</source>
        <translation>每个话题每 %1 条消息取一条</translation>
    </message>
    <message>
        <source>Also applied: %1.</source>
        <translation>另外应用：%1。</translation>
    </message>
    <message>
        <source>Point clouds (%1)</source>
        <translation>点云（%1）</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::ImagePanel</name>
    <message>
        <source>Colour map for depth and 16-bit images</source>
        <translation>深度图和 16 位图像使用的色图</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>1:1</source>
        <translation>1:1</translation>
    </message>
    <message>
        <source>One image pixel per screen pixel</source>
        <translation>一个图像像素对应一个屏幕像素</translation>
    </message>
    <message>
        <source>x %1, y %2: %3</source>
        <translation>x %1，y %2：%3</translation>
    </message>
    <message>
        <source>Save Frame…</source>
        <translation>保存当前帧…</translation>
    </message>
    <message>
        <source>Save this frame as PNG (raw values, 16-bit depth kept) or JPEG</source>
        <translation>将当前帧保存为 PNG（原始数值，保留 16 位深度）或 JPEG</translation>
    </message>
    <message>
        <source>Save This Frame As</source>
        <translation>将当前帧另存为</translation>
    </message>
    <message>
        <source>This recording has no image topics.</source>
        <translation>此录制中没有图像话题。</translation>
    </message>
    <message>
        <source>%1  %2×%3  stamp %4  frame %5</source>
        <translation>%1  %2×%3  时间戳 %4  坐标系 %5</translation>
    </message>
    <message>
        <source>%1: no frame is shown</source>
        <translation>%1：没有显示帧</translation>
    </message>
    <message>
        <source>no CameraInfo for this image</source>
        <translation>此图像没有对应的 CameraInfo</translation>
    </message>
    <message>
        <source>%1 of %2 points in view, coloured by range (0–%3 m)</source>
        <translation>视野内 %1 / %2 个点，按距离着色（0–%3 米）</translation>
    </message>
    <message>
        <source>Undistort</source>
        <translation>去畸变</translation>
    </message>
    <message>
        <source>Project a point cloud into the image with the camera&apos;s calibration (CameraInfo) and the transform between their frames at the image&apos;s stamp</source>
        <translation>用相机标定（CameraInfo）和图像时间戳处两坐标系间的变换，将点云投影到图像中</translation>
    </message>
    <message>
        <source>Remap the raw image through the camera&apos;s distortion model (CameraInfo)</source>
        <translation>按相机畸变模型（CameraInfo）重映射原始图像</translation>
    </message>
    <message>
        <source>No overlay</source>
        <translation>无叠加</translation>
    </message>
    <message>
        <source>Overlay %1</source>
        <translation>叠加 %1</translation>
    </message>
    <message>
        <source>  undistorted</source>
        <translation>  已去畸变</translation>
    </message>
    <message>
        <source>the cloud has no field %1</source>
        <translation>点云没有字段 %1</translation>
    </message>
    <message>
        <source>%1 of %2 points in view, in their own colours</source>
        <translation>%2 个点中有 %1 个在视野内，使用其自身颜色</translation>
    </message>
    <message>
        <source>%1 of %2 points in view, coloured by %3 (%4 – %5)</source>
        <translation>%2 个点中有 %1 个在视野内，按 %3 着色（%4 – %5）</translation>
    </message>
    <message>
        <source>What the projected points are coloured by: their range, or a field of the cloud</source>
        <translation>投影点的着色依据：距离，或点云的某个字段</translation>
    </message>
    <message>
        <source>by range</source>
        <translation>按距离</translation>
    </message>
    <message>
        <source>by %1</source>
        <translation>按 %1</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::InspectorPanel</name>
    <message>
        <source>Search fields</source>
        <translation>搜索字段</translation>
    </message>
    <message>
        <source>Select a topic to see its message at the playhead.</source>
        <translation>选择一个话题，即可查看播放头位置的消息。</translation>
    </message>
    <message>
        <source>This topic has no messages.</source>
        <translation>此话题没有消息。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2) — message %3 of %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;（%2）— 第 %3 条，共 %4 条</translation>
    </message>
    <message>
        <source>log time %1</source>
        <translation>记录时间 %1</translation>
    </message>
    <message>
        <source>(after the playhead: the topic&apos;s first message)</source>
        <translation>（位于播放头之后：该话题的第一条消息）</translation>
    </message>
    <message>
        <source>header.stamp %1 (stamp − log time: %2 ms)</source>
        <translation>header.stamp %1（时间戳 − 记录时间：%2 毫秒）</translation>
    </message>
    <message>
        <source>Copy Value</source>
        <translation>复制值</translation>
    </message>
    <message>
        <source>Copy Path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <source>Copy Message as JSON</source>
        <translation>以 JSON 复制消息</translation>
    </message>
    <message>
        <source>Copy Message as YAML</source>
        <translation>以 YAML 复制消息</translation>
    </message>
    <message>
        <source>Expand All</source>
        <translation>全部展开</translation>
    </message>
    <message>
        <source>Collapse All</source>
        <translation>全部折叠</translation>
    </message>
    <message>
        <source>header.stamp %1</source>
        <translation>header.stamp %1</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::LayerSettingsDialog</name>
    <message>
        <source>Layer Settings</source>
        <translation>图层设置</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>图层</translation>
    </message>
    <message>
        <source>Colour</source>
        <translation>颜色</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>The layer&apos;s colour: automatic (markers: their own) or one you choose</source>
        <translation>图层的颜色：自动（标记使用其自身颜色）或您选择的颜色</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>Colour of %1</source>
        <translation>%1 的颜色</translation>
    </message>
    <message>
        <source> m</source>
        <translation> 米</translation>
    </message>
    <message>
        <source>Arrow length, or the camera frustum&apos;s depth</source>
        <translation>箭头长度，或相机视锥的深度</translation>
    </message>
    <message>
        <source> px</source>
        <translation> 像素</translation>
    </message>
    <message>
        <source>Line and point thickness</source>
        <translation>线和点的粗细</translation>
    </message>
    <message>
        <source>No layers: choose topics in the Layers menu.</source>
        <translation>没有图层：请在“图层”菜单中选择话题。</translation>
    </message>
    <message>
        <source>Map</source>
        <translation>地图</translation>
    </message>
    <message>
        <source>Costmap</source>
        <translation>代价地图</translation>
    </message>
    <message>
        <source>Map: free white, occupied black. Costmap: cost blue to red, inscribed cyan, lethal magenta, free clear (as RViz draws them)</source>
        <translation>地图：空闲为白色，占用为黑色。代价地图：代价由蓝到红，内切为青色，致命为品红，空闲为透明（与 RViz 相同）</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::LogPanel</name>
    <message>
        <source>Time (s)</source>
        <translation>时间（秒）</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>级别</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>源码位置</translation>
    </message>
    <message>
        <source>Follow playhead</source>
        <translation>跟随播放头</translation>
    </message>
    <message>
        <source>%1 and above</source>
        <translation>%1 及以上</translation>
    </message>
    <message>
        <source>The least severe level shown</source>
        <translation>显示的最低严重级别</translation>
    </message>
    <message>
        <source>All nodes</source>
        <translation>所有节点</translation>
    </message>
    <message>
        <source>Search messages, nodes, files</source>
        <translation>搜索消息、节点、文件</translation>
    </message>
    <message>
        <source>Scroll to the last line at or before the playhead as it moves</source>
        <translation>播放头移动时滚动到其所在或之前的最后一行</translation>
    </message>
    <message>
        <source>Double-click a line to move the playhead there</source>
        <translation>双击某行可将播放头移到该处</translation>
    </message>
    <message>
        <source>This recording has no log topics.</source>
        <translation>此录制中没有日志话题。</translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation>正在读取…</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n line(s)</source>
        <translation>
            <numerusform>%1 / 共 %n 行</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::MainWindow</name>
    <message>
        <source>Bagscope</source>
        <translation>Bagscope</translation>
    </message>
    <message>
        <source>Topics</source>
        <translation>话题</translation>
    </message>
    <message>
        <source>Message Inspector</source>
        <translation>消息查看器</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间轴</translation>
    </message>
    <message>
        <source>Open a recording with File ▸ Open, or drop bags and folders here.</source>
        <translation>通过“文件 ▸ 打开”打开录制文件，或将 bag 文件和文件夹拖放到此处。</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Opening was cancelled.</source>
        <translation>已取消打开。</translation>
    </message>
    <message>
        <source>Measuring topic sizes… %1%</source>
        <translation>正在统计各话题大小… %1%</translation>
    </message>
    <message>
        <source>Open a recording (ROS 1 .bag, .mcap, rosbag2 folder) with File ▸ Open or drop it on the window.</source>
        <translation>通过“文件 ▸ 打开”打开录制文件（ROS 1 .bag、.mcap、rosbag2 文件夹），或将其拖放到窗口中。</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open recordings</source>
        <translation>打开录制文件</translation>
    </message>
    <message>
        <source>Open &amp;Folder…</source>
        <translation>打开文件夹(&amp;D)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+O</source>
        <translation>Ctrl+Shift+O</translation>
    </message>
    <message>
        <source>Open a rosbag2 folder or a folder of bags</source>
        <translation>打开 rosbag2 文件夹或存放 bag 文件的文件夹</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Zoom Timeline to Fit</source>
        <translation>时间轴缩放至全部</translation>
    </message>
    <message>
        <source>&amp;Layouts</source>
        <translation>布局(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Playback</source>
        <translation>播放(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Bagscope</source>
        <translation>关于 Bagscope(&amp;A)</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <source>Could not open</source>
        <translation>无法打开</translation>
    </message>
    <message>
        <source>Some files could not be opened</source>
        <translation>部分文件无法打开</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) could not be opened; the others are open.</source>
        <translation>
            <numerusform>有 %n 个文件无法打开，其余文件已打开。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 — Bagscope</source>
        <translation>%1 — Bagscope</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 messages</source>
        <translation>%1 条消息</translation>
    </message>
    <message numerus="yes">
        <source>Opened with %n problem(s): %1</source>
        <translation>
            <numerusform>已打开，但有 %n 个问题：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>No recent files</source>
        <translation>没有最近打开的文件</translation>
    </message>
    <message>
        <source>Clear Recent Files</source>
        <translation>清除最近打开记录</translation>
    </message>
    <message>
        <source>Could not load the layout</source>
        <translation>无法加载布局</translation>
    </message>
    <message>
        <source>No saved layouts</source>
        <translation>没有已保存的布局</translation>
    </message>
    <message>
        <source>Save Layout As…</source>
        <translation>布局另存为…</translation>
    </message>
    <message>
        <source>Import Layout…</source>
        <translation>导入布局…</translation>
    </message>
    <message>
        <source>Export Layout…</source>
        <translation>导出布局…</translation>
    </message>
    <message>
        <source>Delete Layout</source>
        <translation>删除布局</translation>
    </message>
    <message>
        <source>Save Layout</source>
        <translation>保存布局</translation>
    </message>
    <message>
        <source>Layout name:</source>
        <translation>布局名称：</translation>
    </message>
    <message>
        <source>Replace the layout “%1”?</source>
        <translation>要替换布局“%1”吗？</translation>
    </message>
    <message>
        <source>Could not save the layout</source>
        <translation>无法保存布局</translation>
    </message>
    <message>
        <source>Import Layout</source>
        <translation>导入布局</translation>
    </message>
    <message>
        <source>Bagscope layouts (*.json)</source>
        <translation>Bagscope 布局 (*.json)</translation>
    </message>
    <message>
        <source>Could not import the layout</source>
        <translation>无法导入布局</translation>
    </message>
    <message>
        <source>Export Layout</source>
        <translation>导出布局</translation>
    </message>
    <message>
        <source>layout.json</source>
        <translation>layout.json</translation>
    </message>
    <message>
        <source>Could not export the layout</source>
        <translation>无法导出布局</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>The new language takes effect when Bagscope starts again.</source>
        <translation>新的语言将在 Bagscope 下次启动时生效。</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>Align Start Times</source>
        <translation>对齐开始时间</translation>
    </message>
    <message>
        <source>Shift each open file&apos;s times so that all start together (recordings of different days side by side)</source>
        <translation>平移每个已打开文件的时间，使它们同时开始（并排比较不同日期的录制）</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s)</source>
        <translation>
            <numerusform>%n 个问题</numerusform>
        </translation>
    </message>
    <message>
        <source>What this recording could not give in full: open the Problems panel</source>
        <translation>此录制中未能完整读取的内容：打开“问题”面板</translation>
    </message>
    <message>
        <source>Recordings (%1);;All files (*)</source>
        <translation>录制文件 (%1);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Recover…</source>
        <translation>恢复…</translation>
    </message>
    <message>
        <source>Write every message that could be read to a new, clean recording</source>
        <translation>将所有可读取的消息写入一个新的完好录制</translation>
    </message>
    <message>
        <source>&amp;Save Selection As…</source>
        <translation>将所选另存为(&amp;S)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+S</source>
        <translation>Ctrl+Shift+S</translation>
    </message>
    <message>
        <source>&amp;Recover…</source>
        <translation>恢复(&amp;R)…</translation>
    </message>
    <message>
        <source>The arrangement of the last session could not be restored (the app stopped while restoring it); the default arrangement is shown. Saved layouts are kept in View ▸ Layouts.</source>
        <translation>无法恢复上次会话的布局（恢复时应用程序已停止）；现显示默认布局。已保存的布局仍在 视图 ▸ 布局 中。</translation>
    </message>
    <message>
        <source>Arrangement</source>
        <translation>布局</translation>
    </message>
    <message>
        <source>No panels</source>
        <translation>没有面板</translation>
    </message>
    <message>
        <source>Remove Closed Panels</source>
        <translation>移除已关闭的面板</translation>
    </message>
    <message>
        <source>&amp;Panels</source>
        <translation>面板(&amp;P)</translation>
    </message>
    <message>
        <source>The arrangement of the layout “%1” could not be applied; the default arrangement is shown.</source>
        <translation>无法应用布局“%1”的排列；现显示默认布局。</translation>
    </message>
    <message>
        <source>of the last session</source>
        <translation>上次会话的</translation>
    </message>
    <message>
        <source>Compare &amp;With…</source>
        <translation>比较(&amp;W)…</translation>
    </message>
    <message>
        <source>Stop Comparing</source>
        <translation>停止比较</translation>
    </message>
    <message>
        <source>Run B: not set against A</source>
        <translation>运行 B：未能与 A 对齐</translation>
    </message>
    <message>
        <source>Opening run B…</source>
        <translation>正在打开运行 B…</translation>
    </message>
    <message>
        <source>Compared with %1</source>
        <translation>正在与 %1 比较</translation>
    </message>
    <message>
        <source>Run B aligned by %1: its times %2 s</source>
        <translation>运行 B 按 %1 对齐：其时间 %2 秒</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::MapPanel</name>
    <message>
        <source>Drag to pan, wheel to zoom; east is right, north is up</source>
        <translation>拖动平移，滚轮缩放；右为东，上为北</translation>
    </message>
    <message>
        <source>This recording has no satellite fixes.</source>
        <translation>此录制中没有卫星定位。</translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation>正在读取…</translation>
    </message>
    <message numerus="yes">
        <source>%n fix(es)</source>
        <translation>
            <numerusform>%n 个定位</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n without a position</source>
        <translation>
            <numerusform>%n 个无位置</numerusform>
        </translation>
    </message>
    <message>
        <source>%1° %2° · %3 m east, %4 m north of the first fix</source>
        <translation>%1° %2° · 距首个定位东 %3 米、北 %4 米</translation>
    </message>
    <message>
        <source>Tiles</source>
        <translation>瓦片</translation>
    </message>
    <message>
        <source>Background tiles from a tile server you choose (off: nothing is fetched)</source>
        <translation>来自您所选瓦片服务器的背景瓦片（关闭时不获取任何内容）</translation>
    </message>
    <message>
        <source>Map Tiles</source>
        <translation>地图瓦片</translation>
    </message>
    <message>
        <source>Tile URL, with {z}, {x} and {y} (the tile server&apos;s terms apply):</source>
        <translation>瓦片 URL，包含 {z}、{x} 和 {y}（须遵守瓦片服务器的条款）：</translation>
    </message>
    <message numerus="yes">
        <source>%n tile(s) not fetched: %1</source>
        <translation>
            <numerusform>%n 个瓦片未能获取：%1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::MapTiles</name>
    <message>
        <source>© OpenStreetMap contributors</source>
        <translation>© OpenStreetMap 贡献者</translation>
    </message>
    <message>
        <source>Tiles: local files</source>
        <translation>瓦片：本地文件</translation>
    </message>
    <message>
        <source>Tiles: %1</source>
        <translation>瓦片：%1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: not an image</source>
        <translation>%1：不是图像</translation>
    </message>
    <message>
        <source>%1: more than %2 MB, not a tile</source>
        <translation>%1：超过 %2 MB，不是瓦片</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::MapView</name>
    <message>
        <source>%1 km</source>
        <translation>%1 千米</translation>
    </message>
    <message>
        <source>%1 m</source>
        <translation>%1 米</translation>
    </message>
    <message>
        <source>N</source>
        <translation>北</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::MessageTreeModel</name>
    <message numerus="yes">
        <source>%n more item(s) not shown</source>
        <translation>
            <numerusform>另有 %n 项未显示</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n byte(s)</source>
        <translation>
            <numerusform>%n 字节</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n item(s)</source>
        <translation>
            <numerusform>%n 项</numerusform>
        </translation>
    </message>
    <message>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::MessagesPanel</name>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Log time (s)</source>
        <translation>记录时间（秒）</translation>
    </message>
    <message>
        <source>Stamp (s)</source>
        <translation>时间戳（秒）</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>cannot be read: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <source>cannot be decoded: %1</source>
        <translation>无法解码：%1</translation>
    </message>
    <message>
        <source>Follow playhead</source>
        <translation>跟随播放头</translation>
    </message>
    <message>
        <source>Click a message to move the playhead to it</source>
        <translation>单击消息可将播放头移到该处</translation>
    </message>
    <message>
        <source>Select the message at or before the playhead as it moves</source>
        <translation>播放头移动时选中其所在或之前的消息</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::Panel</name>
    <message>
        <source>Saving failed</source>
        <translation>保存失败</translation>
    </message>
    <message>
        <source>%1: the recording has no topic %2</source>
        <translation>%1：录制文件中没有话题 %2</translation>
    </message>
    <message>
        <source>%1: a %2 message is saved as %3, not “.%4”</source>
        <translation>%1：%2 消息应保存为 %3，而不是“.%4”</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::PlaybackBar</name>
    <message>
        <source>Playback</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Jump to Start</source>
        <translation>跳到开头</translation>
    </message>
    <message>
        <source>Previous Message of Selected Topic</source>
        <translation>所选话题的上一条消息</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Next Message of Selected Topic</source>
        <translation>所选话题的下一条消息</translation>
    </message>
    <message>
        <source>Jump to End</source>
        <translation>跳到结尾</translation>
    </message>
    <message>
        <source>Previous Message of Any Topic</source>
        <translation>任意话题的上一条消息</translation>
    </message>
    <message>
        <source>Next Message of Any Topic</source>
        <translation>任意话题的下一条消息</translation>
    </message>
    <message>
        <source>Loop</source>
        <translation>循环</translation>
    </message>
    <message>
        <source>Loop within the selected range (or the whole recording) (L)</source>
        <translation>在选定范围内（或整个录制）循环播放 (L)</translation>
    </message>
    <message>
        <source>Playback speed</source>
        <translation>播放速度</translation>
    </message>
    <message>
        <source>Range:</source>
        <translation>范围：</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Seconds from the start of the recording. Shift-drag on the timeline to select a range.</source>
        <translation>从录制开始起算的秒数。在时间轴上按住 Shift 拖动可选择范围。</translation>
    </message>
    <message>
        <source>Clear Range</source>
        <translation>清除范围</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::PlotPanel</name>
    <message>
        <source>Add XY Series</source>
        <translation>添加 XY 曲线</translation>
    </message>
    <message>
        <source>Add Series</source>
        <translation>添加曲线</translation>
    </message>
    <message>
        <source>Filter fields</source>
        <translation>筛选字段</translation>
    </message>
    <message>
        <source>Topic:</source>
        <translation>话题：</translation>
    </message>
    <message>
        <source>Choose two fields: x first, then y.</source>
        <translation>请选择两个字段：先选 x，再选 y。</translation>
    </message>
    <message>
        <source>Fields:</source>
        <translation>字段：</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>XY</source>
        <translation>XY</translation>
    </message>
    <message>
        <source>Add Series…</source>
        <translation>添加曲线…</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>Show all data</source>
        <translation>显示全部数据</translation>
    </message>
    <message>
        <source>More</source>
        <translation>更多</translation>
    </message>
    <message>
        <source>Drag a numeric field here from the message inspector, or use Add Series…</source>
        <translation>从消息查看器将数值字段拖到此处，或使用“添加曲线…”</translation>
    </message>
    <message>
        <source>seconds from the start</source>
        <translation>从开头起算的秒数</translation>
    </message>
    <message>
        <source>Export Visible Range as CSV…</source>
        <translation>将可见范围导出为 CSV…</translation>
    </message>
    <message>
        <source>Export Visible Range as CSV</source>
        <translation>将可见范围导出为 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Save as Image…</source>
        <translation>保存为图片…</translation>
    </message>
    <message>
        <source>Save Plot as Image</source>
        <translation>将曲线图保存为图片</translation>
    </message>
    <message>
        <source>Saving failed</source>
        <translation>保存失败</translation>
    </message>
    <message>
        <source>Remove All Series</source>
        <translation>移除所有曲线</translation>
    </message>
    <message>
        <source>no topic %1 in this recording</source>
        <translation>此录制中没有话题 %1</translation>
    </message>
    <message>
        <source>time of day</source>
        <translation>一天中的时刻</translation>
    </message>
    <message>
        <source>Unix time (s)</source>
        <translation>Unix 时间（秒）</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%2 的%1</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n sample(s), min %2, max %3, mean %4, std %5, %6 Hz</source>
        <translation>
            <numerusform>%1：%n 个样本，最小 %2，最大 %3，平均 %4，标准差 %5，%6 Hz</numerusform>
        </translation>
    </message>
    <message>
        <source>Logarithmic Y Axis</source>
        <translation>对数 Y 轴</translation>
    </message>
    <message>
        <source>Equal Axis Scales (XY)</source>
        <translation>等比例坐标轴（XY）</translation>
    </message>
    <message>
        <source>One unit as long on both axes: a trajectory keeps its shape</source>
        <translation>两轴上同一单位长度相同：轨迹保持原形</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <source>Rename Series</source>
        <translation>重命名序列</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Colour…</source>
        <translation>颜色…</translation>
    </message>
    <message>
        <source>Series Colour</source>
        <translation>序列颜色</translation>
    </message>
    <message>
        <source>Right Y Axis</source>
        <translation>右侧 Y 轴</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Derived Series</source>
        <translation>派生序列</translation>
    </message>
    <message>
        <source> [header stamp]</source>
        <translation> [header stamp 时间]</translation>
    </message>
    <message>
        <source>Header Stamp as Time</source>
        <translation>以 header stamp 为时间</translation>
    </message>
    <message>
        <source>Place its samples at their header stamp instead of their log time</source>
        <translation>按消息的 header stamp 而不是记录时间放置其样本</translation>
    </message>
    <message>
        <source>%1, by header stamp</source>
        <translation>%1，按 header stamp</translation>
    </message>
    <message>
        <source>%1, by log time (by header stamp where marked)</source>
        <translation>%1，按记录时间（标注处按 header stamp）</translation>
    </message>
    <message>
        <source>Legend Beside the Plot</source>
        <translation>图例放在图旁</translation>
    </message>
    <message>
        <source>Draw As</source>
        <translation>绘制为</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>线</translation>
    </message>
    <message>
        <source>Points</source>
        <translation>点</translation>
    </message>
    <message>
        <source>Line and Points</source>
        <translation>线和点</translation>
    </message>
    <message>
        <source>(the same topic)</source>
        <translation>（同一话题）</translation>
    </message>
    <message>
        <source>X from topic:</source>
        <translation>X 来自话题：</translation>
    </message>
    <message>
        <source>X field:</source>
        <translation>X 字段：</translation>
    </message>
    <message>
        <source>Choose two fields, x then y, or an x field of another topic and one y field.</source>
        <translation>请选择两个字段（先 x 后 y），或另一话题的 x 字段加一个 y 字段。</translation>
    </message>
    <message>
        <source>Choose the y field.</source>
        <translation>请选择 y 字段。</translation>
    </message>
    <message>
        <source>Add State Lane</source>
        <translation>添加状态通道</translation>
    </message>
    <message>
        <source>or type a path: ranges[0:10], markers[:]{id==3}.pose.position.x</source>
        <translation>或输入路径：ranges[0:10]、markers[:]{id==3}.pose.position.x</translation>
    </message>
    <message>
        <source>Message paths as in Foxglove: fields a.b.c; index [3], from the end [-1]; slices [0:10] (one series per element) and [:]; filters {id==3}, {key==&quot;temp&quot;}, {level&gt;=2}</source>
        <translation>与 Foxglove 相同的消息路径：字段 a.b.c；索引 [3]，从末尾 [-1]；切片 [0:10]（每个元素一条曲线）和 [:]；过滤 {id==3}、{key==&quot;temp&quot;}、{level&gt;=2}</translation>
    </message>
    <message>
        <source>Spectrum (FFT)</source>
        <translation>频谱（FFT）</translation>
    </message>
    <message>
        <source>Histogram</source>
        <translation>直方图</translation>
    </message>
    <message>
        <source>States</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Fields over time; one field against another; the spectrum or histogram of the time series over the range shown; fields as state lanes</source>
        <translation>字段随时间变化；一个字段对另一个字段；所示时间范围内时间序列的频谱或直方图；字段作为状态通道</translation>
    </message>
    <message>
        <source>frequency (Hz)</source>
        <translation>频率（Hz）</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>amplitude</source>
        <translation>幅值</translation>
    </message>
    <message>
        <source>samples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>Custom Expression…</source>
        <translation>自定义表达式…</translation>
    </message>
    <message>
        <source>Custom Expression</source>
        <translation>自定义表达式</translation>
    </message>
    <message>
        <source>%1
t = time (s)

Expression (e.g. sqrt(a^2 + b^2), a - b, abs(a) * 2, atan2(b, a)):</source>
        <translation>%1
t = 时间（秒）

表达式（例如 sqrt(a^2 + b^2)、a - b、abs(a) * 2、atan2(b, a)）：</translation>
    </message>
    <message>
        <source>Over %1 s to %2 s of the time plot</source>
        <translation>时间图中 %1 秒至 %2 秒的范围</translation>
    </message>
    <message>
        <source>At %1:</source>
        <translation>在 %1：</translation>
    </message>
    <message>
        <source>At the playhead (%1):</source>
        <translation>在播放头处（%1）：</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图片 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Export Aligned Table…</source>
        <translation>导出对齐表格…</translation>
    </message>
    <message>
        <source>Export Aligned Table</source>
        <translation>导出对齐表格</translation>
    </message>
    <message>
        <source>The visible series as one table: a row at each sample of the first, the others&apos; last value at or before it (as pandas&apos; merge_asof)</source>
        <translation>可见曲线合为一张表：第一条曲线的每个采样为一行，其余曲线取该时刻或之前的最后一个值（同 pandas 的 merge_asof）</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n sample(s), RMS %2, max |Δ| %3, mean %4, correlation %5</source>
        <translation>
            <numerusform>%1：%n 个样本，RMS %2，最大 |Δ| %3，平均 %4，相关系数 %5</numerusform>
        </translation>
    </message>
    <message>
        <source>Run B Beside It</source>
        <translation>并排显示运行 B</translation>
    </message>
    <message>
        <source>Difference B − A</source>
        <translation>差值 B − A</translation>
    </message>
    <message>
        <source>%1 [B]</source>
        <translation>%1 [B]</translation>
    </message>
    <message>
        <source>%1 [B − A]</source>
        <translation>%1 [B − A]</translation>
    </message>
    <message>
        <source>%1: no run B (File ▸ Compare With…)</source>
        <translation>%1：没有运行 B（文件 ▸ 比较…）</translation>
    </message>
    <message>
        <source>no topic %1 in run B</source>
        <translation>运行 B 中没有话题 %1</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::ProblemsPanel</name>
    <message>
        <source>No problems: every file opened whole and every topic decodes.</source>
        <translation>没有问题：每个文件都完整打开，每个话题都能解码。</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::SaveRecordingDialog</name>
    <message>
        <source>None</source>
        <translation>全不选</translation>
    </message>
    <message>
        <source>The whole recording</source>
        <translation>整个录制</translation>
    </message>
    <message>
        <source>Recover Recording</source>
        <translation>恢复录制</translation>
    </message>
    <message>
        <source>Save Selection As</source>
        <translation>将所选另存为</translation>
    </message>
    <message>
        <source>Every message that could be read from the damaged recording is written to a new, indexed one. What could not be read is listed when it is done.</source>
        <translation>从损坏的录制中读取到的每条消息都会写入一个带索引的新录制。完成后会列出无法读取的内容。</translation>
    </message>
    <message>
        <source>Topics:</source>
        <translation>话题：</translation>
    </message>
    <message>
        <source>All</source>
        <translation>全选</translation>
    </message>
    <message>
        <source>The selected range (%1 s to %2 s after the start)</source>
        <translation>所选范围（开始后 %1 秒至 %2 秒）</translation>
    </message>
    <message>
        <source>The selected range (none: Shift-drag on the timeline)</source>
        <translation>所选范围（无：在时间轴上按住 Shift 拖动）</translation>
    </message>
    <message>
        <source>Messages:</source>
        <translation>消息：</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>Compression:</source>
        <translation>压缩：</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Save to:</source>
        <translation>保存到：</translation>
    </message>
    <message>
        <source>A %1 cannot hold %2 messages</source>
        <translation>%1 无法容纳 %2 消息</translation>
    </message>
    <message>
        <source>New rosbag2 Folder</source>
        <translation>新的 rosbag2 文件夹</translation>
    </message>
    <message>
        <source>Save Recording</source>
        <translation>保存录制</translation>
    </message>
    <message>
        <source>Tick at least one topic.</source>
        <translation>请至少勾选一个话题。</translation>
    </message>
    <message>
        <source>Choose where to save.</source>
        <translation>请选择保存位置。</translation>
    </message>
    <message>
        <source>%1 exists already. Replace it?</source>
        <translation>%1 已存在。要替换吗？</translation>
    </message>
    <message>
        <source>Writing %1…</source>
        <translation>正在写入 %1…</translation>
    </message>
    <message>
        <source>Cancelled: nothing was written.</source>
        <translation>已取消：未写入任何内容。</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>未保存：%1</translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n message(s) on %1 topic(s) to %2 (%3).</source>
        <translation>
            <numerusform>已将 %n 条消息（%1 个话题）写入 %2（%3）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Could not be read (%n):</source>
        <translation>
            <numerusform>无法读取（%n 项）：</numerusform>
        </translation>
    </message>
    <message>
        <source>Not written: %1</source>
        <translation>未写入：%1</translation>
    </message>
    <message>
        <source>What the damaged recording lost:</source>
        <translation>损坏的录制丢失的内容：</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>None</source>
        <comment>no compression</comment>
        <translation>无</translation>
    </message>
    <message>
        <source>As recorded</source>
        <translation>按原样</translation>
    </message>
    <message>
        <source>ROS 2 (translate messages)</source>
        <translation>ROS 2（转换消息）</translation>
    </message>
    <message>
        <source>ROS 1 (translate messages)</source>
        <translation>ROS 1（转换消息）</translation>
    </message>
    <message>
        <source>Types, definitions and messages in the other ROS version&apos;s form, as bagscope-cli convert --to-ros2 or --to-ros1 writes them; what is renamed, dropped or left zero is listed when it is done</source>
        <translation>类型、定义和消息转换为另一 ROS 版本的形式，与 bagscope-cli convert --to-ros2 或 --to-ros1 的输出相同；完成后列出被重命名、丢弃或置零的内容</translation>
    </message>
    <message>
        <source>Messages as:</source>
        <translation>消息形式：</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::SceneLayers</name>
    <message>
        <source>%1 is not in this recording</source>
        <translation>%1 不在此录制中</translation>
    </message>
    <message>
        <source>%1: the scene does not draw %2</source>
        <translation>%1：场景不绘制 %2</translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) in frame %1 not drawn: no transform to %2</source>
        <translation>
            <numerusform>坐标系 %1 中的 %n 个对象未绘制：没有到 %2 的变换</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n mesh(es) drawn as boxes: mesh files are not read (%1)</source>
        <translation>
            <numerusform>%n 个网格以方框绘制：不读取网格文件（%1）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Seconds from the start</source>
        <translation>从开头起算的秒数</translation>
    </message>
    <message>
        <source>Clock time</source>
        <translation>时钟时间</translation>
    </message>
    <message>
        <source>Unix time (s)</source>
        <translation>Unix 时间（秒）</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>Memory for decompressed chunks, shared by all panels. More makes moving back and forth faster.</source>
        <translation>用于缓存已解压数据块的内存，由所有面板共享。越大，来回跳转越快。</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <source>A new language takes effect when Bagscope starts again.</source>
        <translation>更改语言后，需重新启动 Bagscope 才会生效。</translation>
    </message>
    <message>
        <source>Show times as:</source>
        <translation>时间显示方式：</translation>
    </message>
    <message>
        <source>Cache budget:</source>
        <translation>缓存上限：</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>Default export folder</source>
        <translation>默认导出文件夹</translation>
    </message>
    <message>
        <source>Default export folder:</source>
        <translation>默认导出文件夹：</translation>
    </message>
    <message>
        <source>Used for types a recording does not define: folders holding package/msg/Type.msg files, and recordings whose definitions are borrowed. Applied to the open recording at once.</source>
        <translation>用于录制文件未定义的类型：包含 package/msg/Type.msg 文件的文件夹，以及借用其定义的录制文件。立即应用于当前打开的录制。</translation>
    </message>
    <message>
        <source>Add Folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <source>Add Recording…</source>
        <translation>添加录制文件…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Folder of message definitions</source>
        <translation>消息定义文件夹</translation>
    </message>
    <message>
        <source>Recording to borrow definitions from</source>
        <translation>借用定义的录制文件</translation>
    </message>
    <message>
        <source>Message definitions:</source>
        <translation>消息定义：</translation>
    </message>
    <message>
        <source>Recordings (%1)</source>
        <translation>录制文件 (%1)</translation>
    </message>
    <message>
        <source>The map&apos;s background tiles, fetched only when a map&apos;s Tiles box is ticked; empty: none</source>
        <translation>地图的背景瓦片，仅在勾选地图的“瓦片”框时获取；留空：无</translation>
    </message>
    <message>
        <source>Map tile URL:</source>
        <translation>地图瓦片 URL：</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::StatsDialog</name>
    <message>
        <source>Stats — %1</source>
        <translation>统计 — %1</translation>
    </message>
    <message>
        <source>Largest gaps between messages:</source>
        <translation>消息之间最大的间隔：</translation>
    </message>
    <message>
        <source>From</source>
        <translation>起</translation>
    </message>
    <message>
        <source>To</source>
        <translation>止</translation>
    </message>
    <message>
        <source>Length (ms)</source>
        <translation>时长（毫秒）</translation>
    </message>
    <message>
        <source>Could not compute:</source>
        <translation>无法计算：</translation>
    </message>
    <message>
        <source>Messages:</source>
        <translation>消息数：</translation>
    </message>
    <message>
        <source>Mean rate:</source>
        <translation>平均频率：</translation>
    </message>
    <message>
        <source>%1 Hz</source>
        <translation>%1 Hz</translation>
    </message>
    <message>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <source>Jitter (std. dev. of intervals):</source>
        <translation>抖动（间隔的标准差）：</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>Out-of-order writes:</source>
        <translation>乱序写入：</translation>
    </message>
    <message>
        <source>Zero header stamps:</source>
        <translation>header 时间戳为零：</translation>
    </message>
    <message>
        <source>Latency (log time − stamp):</source>
        <translation>延迟（记录时间 − 时间戳）：</translation>
    </message>
    <message>
        <source>min %1 ms · median %2 ms · max %3 ms</source>
        <translation>最小 %1 毫秒 · 中位数 %2 毫秒 · 最大 %3 毫秒</translation>
    </message>
    <message>
        <source>Latency:</source>
        <translation>延迟：</translation>
    </message>
    <message>
        <source>this type has no header stamp</source>
        <translation>此类型没有 header 时间戳</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Rate of the median interval:</source>
        <translation>中位间隔对应的频率：</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::TfTreePanel</name>
    <message>
        <source>Frame</source>
        <translation>坐标系</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Rate (Hz)</source>
        <translation>频率（Hz）</translation>
    </message>
    <message>
        <source>Last update (s)</source>
        <translation>最近更新（秒）</translation>
    </message>
    <message>
        <source>In its parent at the playhead</source>
        <translation>播放头处相对父坐标系</translation>
    </message>
    <message>
        <source>Frame:</source>
        <translation>坐标系：</translation>
    </message>
    <message>
        <source>Relative to:</source>
        <translation>相对于：</translation>
    </message>
    <message>
        <source>At the playhead:</source>
        <translation>播放头处：</translation>
    </message>
    <message>
        <source>This recording has no transforms.</source>
        <translation>此录制中没有坐标变换。</translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation>正在读取…</translation>
    </message>
    <message>
        <source>static</source>
        <translation>静态</translation>
    </message>
    <message>
        <source>dynamic</source>
        <translation>动态</translation>
    </message>
    <message>
        <source>root</source>
        <translation>根</translation>
    </message>
    <message>
        <source>Choose two frames.</source>
        <translation>请选择两个坐标系。</translation>
    </message>
    <message>
        <source>No frame %1 in the transforms.</source>
        <translation>坐标变换中没有坐标系 %1。</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::TimelineWidget</name>
    <message>
        <source>time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>Open a recording to see its messages over time.</source>
        <translation>打开录制文件后，即可在此按时间查看其消息。</translation>
    </message>
    <message>
        <source>Zoom to Fit</source>
        <translation>缩放至全部</translation>
    </message>
    <message>
        <source>Zoom to Selected Range</source>
        <translation>缩放至所选范围</translation>
    </message>
    <message>
        <source>Clear Selected Range</source>
        <translation>清除所选范围</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::TopicListPanel</name>
    <message>
        <source>Filter topics by name or type</source>
        <translation>按名称或类型筛选话题</translation>
    </message>
    <message>
        <source>Copy Topic Name</source>
        <translation>复制话题名称</translation>
    </message>
    <message>
        <source>Stats…</source>
        <translation>统计…</translation>
    </message>
    <message>
        <source>Plot Field…</source>
        <translation>绘制字段曲线…</translation>
    </message>
    <message>
        <source>Export This Topic…</source>
        <translation>导出此话题…</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::TopicModel</name>
    <message>
        <source>Messages of this topic cannot be decoded: %1</source>
        <translation>无法解码此话题的消息：%1</translation>
    </message>
    <message>
        <source>Being measured in the background…</source>
        <translation>正在后台统计…</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>话题</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>消息数</translation>
    </message>
    <message>
        <source>Rate (Hz)</source>
        <translation>频率 (Hz)</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Only in run A</source>
        <translation>仅在运行 A 中</translation>
    </message>
    <message>
        <source>Only in run B</source>
        <translation>仅在运行 B 中</translation>
    </message>
    <message>
        <source>Run B&apos;s type: %1</source>
        <translation>运行 B 的类型：%1</translation>
    </message>
    <message>
        <source>Run B defines this type differently</source>
        <translation>运行 B 对此类型的定义不同</translation>
    </message>
    <message>
        <source>Messages B</source>
        <translation>消息数 B</translation>
    </message>
    <message>
        <source>Rate B (Hz)</source>
        <translation>频率 B (Hz)</translation>
    </message>
    <message>
        <source>Largest Gap (s)</source>
        <translation>最大间隔 (秒)</translation>
    </message>
    <message>
        <source>Largest Gap B (s)</source>
        <translation>最大间隔 B (秒)</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::VtkView</name>
    <message>
        <source>The 3D view needs OpenGL 3.2, which this system lacks.</source>
        <translation>3D 视图需要 OpenGL 3.2，而此系统没有。</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Opens ROS recordings without ROS.</source>
        <translation>无需 ROS 即可打开 ROS 录制文件。</translation>
    </message>
    <message>
        <source>user interface language for this run (en, zh_CN, ja_JP)</source>
        <translation>本次运行使用的界面语言（en、zh_CN、ja_JP）</translation>
    </message>
    <message>
        <source>recordings or folders to open</source>
        <translation>要打开的录制文件或文件夹</translation>
    </message>
</context>
</TS>
