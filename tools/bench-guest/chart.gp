# SPDX-License-Identifier: GPL-2.0
# tools/bench: base vs patched per workload, from report.py's chart.dat.
# gnuplot -e "datafile='...'; outfile='...'" chart.gp
set terminal svg size 1100,560 dynamic noenhanced font "sans,12" background rgb "white"
set output outfile
set title "skb_pool series: instructions per packet (per head for skb-head-*), qemu -icount shift=0\nlabels: patched/base, lower is better"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set yrange [0:*]
set ylabel "instructions per packet (per head for skb-head-*)"
set bmargin 4
set grid ytics
set xtics nomirror font ",10"
set key top right
plot datafile using 2:xtic(1) title "base" lc rgb "#7f7f7f", \
     '' using 3 title "patched" lc rgb "#1f77b4", \
     '' using 0:($3):(sprintf("%.3f", $4)) with labels notitle offset 1.6,0.7 font ",10"
