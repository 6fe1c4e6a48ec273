module example.com/pix

go 1.19
