// SwingAudio — module placeholder; replaced as the module is built.
